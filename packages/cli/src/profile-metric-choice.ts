import { UsageError } from './usage-error.js';
import type { SectionDefinition, SectionSetName } from './sections/section-definition.js';
import { collectedMetrics, computeCapabilityOf, findSections, resolveSections, type ProfileSection } from './sections/resolve-sections.js';

/** What `kreplay profile` was asked to collect: sections (`--section`, `--set`) and metrics (`--metrics`). */
export interface MetricChoice {
  readonly sections: readonly SectionDefinition[];
  /** The metrics named with --metrics, in order. */
  readonly commandLine: readonly string[];
}

/** The flags of a choice, as commander parses them. */
export interface MetricChoiceOptions {
  readonly metrics?: string;
  readonly section?: readonly string[];
  readonly set?: SectionSetName;
}

/**
 * The choice of `--section`, `--set` and `--metrics`; with none of them, ncu's default, the set
 * `basic`.
 * @throws UsageError for a --metrics that names no metric or a --section that names no section.
 */
export function chooseMetrics(options: MetricChoiceOptions): MetricChoice {
  const commandLine = options.metrics === undefined ? [] : options.metrics.split(',').map((metric) => metric.trim()).filter((metric) => metric !== '');
  if (options.metrics !== undefined && commandLine.length === 0) {
    throw new UsageError('profile', `--metrics names no metric ("${options.metrics}")`, 'Pass CUPTI metric names separated by commas, e.g. --metrics gpu__time_duration.sum');
  }
  const nothingNamed = options.metrics === undefined && options.section === undefined && options.set === undefined;
  return { sections: findSections(options.section ?? [], nothingNamed ? 'basic' : options.set), commandLine };
}

/** What a choice collects on a device of `architecture` (`sm_90`). */
export interface ResolvedMetricChoice {
  readonly sections: readonly ProfileSection[];
  readonly commandLineMetrics: readonly string[];
  /** The metrics CUPTI collects: the sections' and --metrics, but those computed from the launch. */
  readonly metrics: readonly string[];
}

/**
 * The sections and metrics of `choice` on `architecture`.
 * @throws UsageError when nothing is left for CUPTI to collect (only launch statistics were named).
 */
export function resolveMetricChoice(choice: MetricChoice, architecture: string): ResolvedMetricChoice {
  const capability = computeCapabilityOf(architecture) ?? 0;
  const sections = resolveSections(choice.sections, capability);
  const metrics = collectedMetrics(sections, choice.commandLine);
  if (metrics.length === 0) {
    throw new UsageError('profile', `nothing to collect with counters on ${architecture}: the sections and metrics named are all computed from the launch`, 'Name a section or metric CUPTI collects, e.g. --section SpeedOfLight');
  }
  return { sections, commandLineMetrics: choice.commandLine, metrics };
}
