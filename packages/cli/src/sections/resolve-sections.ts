import { UsageError } from '../usage-error.js';
import { isLaunchMetric } from '../profile-launch.js';
import { metricOn, type ComputeCapability, type SectionDefinition, type SectionSetName } from './section-definition.js';
import { missingSections, sections, sectionsOfSet } from './sections.js';

/** A section as one device collects it: its table's rows and the metrics it collects besides. */
export interface ProfileSection {
  readonly identifier: string;
  readonly displayName: string;
  /** Its table: each row's label and metric, in ncu's order (by metric name). */
  readonly header: readonly { readonly label: string; readonly metric: string }[];
  /** The metrics it collects beyond its table (the raw page shows them). */
  readonly body: readonly string[];
}

/** The name ncu gives the table of metrics named with `--metrics`. */
export const commandLineSectionName = 'Command line profiler metrics';

/** Whether `pattern` names `identifier`: exactly, or `regex:EXPRESSION` searched in it, as ncu reads `--section`. */
function namesSection(pattern: string, identifier: string): boolean {
  return pattern.startsWith('regex:') ? new RegExp(pattern.slice('regex:'.length)).test(identifier) : pattern === identifier;
}

/**
 * The sections that `--section` (each an identifier, or `regex:EXPRESSION`) and `--set` name, in
 * ncu's order, each once.
 * @throws UsageError for a `--section` that names none of them, saying why ncu's section of that
 * name is left out where it is.
 */
export function findSections(patterns: readonly string[], set: SectionSetName | undefined): SectionDefinition[] {
  const found = new Set<SectionDefinition>(set === undefined ? [] : sectionsOfSet(set));
  for (const pattern of patterns) {
    if (pattern.startsWith('regex:')) {
      try {
        new RegExp(pattern.slice('regex:'.length));
      } catch (error) {
        throw new UsageError('profile', `--section ${pattern} is not a regular expression (${(error as Error).message})`, 'Fix the expression after regex:');
      }
    }
    const matching = sections.filter((section) => namesSection(pattern, section.identifier));
    if (matching.length === 0) {
      const missing = missingSections.find((section) => namesSection(pattern, section.identifier));
      const why = missing === undefined ? 'no section has that identifier' : `kreplay leaves out ncu's ${missing.identifier}: ${missing.reason}`;
      throw new UsageError('profile', `--section ${pattern}: ${why}`, 'kreplay profile --list-sections lists the sections');
    }
    for (const section of matching) found.add(section);
  }
  return [...found].sort((a, b) => a.order - b.order);
}

/** The compute capability of an architecture name (`sm_90` -> 90, `sm_100a` -> 100), or null. */
export function computeCapabilityOf(architecture: string): ComputeCapability | null {
  const match = /^sm_(\d+)[a-z]?$/.exec(architecture);
  return match === null ? null : Number(match[1]);
}

/**
 * What `definitions` collect on a device of `capability`: each metric that applies there (or the
 * option that replaces it), the table in ncu's order (by metric name).
 */
export function resolveSections(definitions: readonly SectionDefinition[], capability: ComputeCapability): ProfileSection[] {
  return definitions.map((definition) => {
    const header = definition.header
      .map((entry) => ({ label: entry.label, metric: metricOn(entry, capability) }))
      .filter((entry): entry is { label: string; metric: string } => entry.metric !== undefined)
      .sort((a, b) => (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0));
    const shown = new Set(header.map((entry) => entry.metric));
    const body = [...new Set(definition.body.map((entry) => metricOn(entry, capability)))].filter(
      (metric): metric is string => metric !== undefined && !shown.has(metric),
    );
    return { identifier: definition.identifier, displayName: definition.displayName, header, body };
  });
}

/** Every metric of `resolved` and of `commandLine`, each once, in order. */
export function allMetrics(resolved: readonly ProfileSection[], commandLine: readonly string[]): string[] {
  return [...new Set([...resolved.flatMap((section) => [...section.header.map((entry) => entry.metric), ...section.body]), ...commandLine])];
}

/** The metrics CUPTI collects for `resolved` and `commandLine`: all of them but those kreplay computes from the launch. */
export function collectedMetrics(resolved: readonly ProfileSection[], commandLine: readonly string[]): string[] {
  return allMetrics(resolved, commandLine).filter((metric) => !isLaunchMetric(metric));
}
