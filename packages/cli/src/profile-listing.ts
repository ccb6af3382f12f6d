import { profileMetricListSchemaId, profileMetricListVersion, profileSectionListSchemaId, profileSectionListVersion } from '@kreplay/bench';
import { KreplayError, openRuntime, queryCuptiMetrics, type CuptiMetric } from '@kreplay/native';
import { missingSections, missingSectionsOfSet, sectionSetNames, sections, sectionsOfSet } from './sections/sections.js';
import { UsageError } from './usage-error.js';

/** Columns of text, each as wide as its widest cell, under a rule as ncu prints its lists. */
function columns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const rule = widths.map((width) => '-'.repeat(width)).join(' ');
  const line = (row: readonly string[]) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join(' ');
  return [rule, line(header), rule, ...rows.map(line)].join('\n');
}

const metricCount = (section: (typeof sections)[number]) => new Set([...section.header, ...section.body].map((entry) => entry.name)).size;

/** `kreplay profile --list-sections`: each section, its sets and metrics; then ncu's that kreplay leaves out, and why. */
export function describeSectionList(): string {
  const rows = sections.map((section) => [section.identifier, section.displayName, section.sets.join(', '), String(metricCount(section))]);
  const missing = missingSections.map((section) => `  ${section.identifier} (${section.sets.join(', ')}): ${section.reason}`);
  return `${columns(['Identifier', 'Display Name', 'Sets', 'Metrics'], rows)}\n\nncu's sections kreplay leaves out:\n${missing.join('\n')}\n`;
}

/** `--list-sections --json` and `--list-sets --json` (`urn:kreplay:schema:profile-section-list:1`): the definitions themselves, and ncu's sections left out. */
export function sectionListJson(): string {
  const sets = Object.fromEntries(sectionSetNames.map((set) => [set, sectionsOfSet(set).map((section) => section.identifier)]));
  return `${JSON.stringify({ schema: profileSectionListSchemaId, schemaVersion: profileSectionListVersion, sections, missing: missingSections, sets })}\n`;
}

/** `kreplay profile --list-sets`: each of ncu's sets and the sections kreplay collects for it. */
export function describeSetList(): string {
  const rows = sectionSetNames.map((set) => {
    const held = sectionsOfSet(set);
    const left = missingSectionsOfSet(set).map((section) => section.identifier);
    return [set, held.map((section) => section.identifier).join(', '), String(held.reduce((sum, section) => sum + metricCount(section), 0)), left.length === 0 ? '-' : left.join(', ')];
  });
  return `${columns(['Identifier', 'Sections', 'Metrics', 'Left out (--list-sections says why)'], rows)}\n`;
}

/** How --query-metrics lists: base metrics (ncu's default), the suffixes of the --metrics named, or every metric with its suffixes. */
export type QueryMetricsMode = 'base' | 'suffix' | 'all';

/**
 * The chip to list metrics for: `--chip`, else the chip of the cuda driver's first device.
 * @throws KreplayError saying to pass --chip when there is no CUDA device or CUPTI.
 */
async function chipToQuery(chip: string | undefined): Promise<string> {
  if (chip !== undefined) return chip;
  try {
    await using runtime = await openRuntime({ driver: 'cuda' });
    return runtime.profiler!.chipName(0);
  } catch (error) {
    const why = (error as Error).message.replace(/^\[[^\]]+\] \[[^\]]+\] /, '').replace(/\.$/, '');
    throw new KreplayError({
      packageName: 'cli',
      component: 'profile',
      message: `[cli] [profile] --query-metrics lists the metrics of this machine's GPU, and it has none CUPTI can name (${why}). Run it on a machine with an NVIDIA GPU and CUPTI, or pass --chip (e.g. --chip GH100) to list a chip's metrics without one.`,
    });
  }
}

/** What `--query-metrics` found: the chip and its metrics. */
export interface QueriedMetrics {
  readonly chip: string;
  readonly mode: QueryMetricsMode;
  readonly metrics: readonly CuptiMetric[];
}

/**
 * The metrics CUPTI's host API knows for the chip (`mode` as ncu's --query-metrics-mode).
 * @throws UsageError for `suffix` without metrics; what queryCuptiMetrics throws.
 */
export async function queryMetrics(options: { readonly chip?: string; readonly mode: QueryMetricsMode; readonly metrics: readonly string[] }): Promise<QueriedMetrics> {
  if (options.mode === 'suffix' && options.metrics.length === 0) {
    throw new UsageError('profile', '--query-metrics-mode suffix lists the suffixes of the metrics --metrics names, and it names none', 'Pass --metrics with base names, e.g. --metrics gpu__time_duration');
  }
  const chip = await chipToQuery(options.chip);
  return await queryChip(chip, options).catch((error: unknown) => {
    if (options.chip !== undefined && (error as { code?: unknown }).code === 'CUPTI_ERROR_INVALID_CHIP_NAME') {
      throw new UsageError('profile', `--chip ${options.chip}: CUPTI knows no chip of that name (CUPTI_ERROR_INVALID_CHIP_NAME)`, 'Spell it as CUPTI does (GH100, GB100, AD102), or leave out --chip to list the metrics of this device');
    }
    throw error;
  });
}

async function queryChip(chip: string, options: { readonly mode: QueryMetricsMode; readonly metrics: readonly string[] }): Promise<QueriedMetrics> {
  if (options.mode === 'base') {
    const all = await queryCuptiMetrics({ chip });
    const named = new Set(options.metrics);
    return { chip, mode: options.mode, metrics: named.size === 0 ? all : all.filter((metric) => named.has(metric.name)) };
  }
  const names = options.mode === 'suffix' ? options.metrics : (await queryCuptiMetrics({ chip })).map((metric) => metric.name);
  return { chip, mode: options.mode, metrics: await queryCuptiMetrics({ chip, metrics: names }) };
}

/** `--query-metrics --json` (`urn:kreplay:schema:profile-metric-list:1`): the chip, the mode and the metrics. */
export function queriedMetricsJson(queried: QueriedMetrics): string {
  return `${JSON.stringify({ schema: profileMetricListSchemaId, schemaVersion: profileMetricListVersion, ...queried })}\n`;
}

/** The terminal form of --query-metrics: ncu's table of name, type, unit and description (with suffixes: each full name). */
export function describeQueriedMetrics(queried: QueriedMetrics): string {
  const rows =
    queried.mode === 'base'
      ? queried.metrics.map((metric) => [metric.name, metric.type, metric.unit, metric.description])
      : queried.metrics.flatMap((metric) => metric.subMetrics.map((suffix) => [`${metric.name}${suffix}`, metric.type, metric.unit, metric.description]));
  return `Device ${queried.chip}\n${columns(['Metric Name', 'Metric Type', 'Metric Unit', 'Metric Description'], rows)}\n`;
}
