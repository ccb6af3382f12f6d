/**
 * What one of Nsight Compute's sections collects and prints, as `kreplay profile --section` holds
 * it: one file per section in this folder.
 */

/** Compute capabilities as ncu's section files write them, major * 10 + minor: 90 for 9.0, 120 for 12.0. */
export type ComputeCapability = number;

/** A range of compute capabilities, both ends included; a missing end is open. */
export interface ComputeCapabilityRange {
  readonly min?: ComputeCapability;
  readonly max?: ComputeCapability;
}

/** Another metric a section collects in place of the first on some architectures (ncu's `Options`). */
export interface SectionMetricOption {
  readonly name: string;
  readonly on: readonly ComputeCapabilityRange[];
}

/** One metric of a section, with the label ncu prints for it. */
export interface SectionMetric {
  readonly label: string;
  readonly name: string;
  /** The architectures it is collected on (ncu's `Filter`); absent: all. */
  readonly on?: readonly ComputeCapabilityRange[];
  /** Metrics collected instead of `name` on the architectures each names; the first that applies wins. */
  readonly options?: readonly SectionMetricOption[];
}

/** Metrics of ncu's section that kreplay does not collect, and why. */
export interface LeftOutMetrics {
  readonly names: readonly string[];
  readonly reason: string;
}

/** A set of sections, as `ncu --set` names them. */
export type SectionSetName = 'basic' | 'detailed' | 'full' | 'roofline';

/** One section: its ncu identifier, what it prints, what it collects besides, and what it leaves out. */
export interface SectionDefinition {
  /** ncu's identifier (`--section SpeedOfLight`). */
  readonly identifier: string;
  /** The name ncu prints (`GPU Speed Of Light Throughput`). */
  readonly displayName: string;
  /** ncu's order of sections on a page. */
  readonly order: number;
  /** The sets of ncu that hold it. */
  readonly sets: readonly SectionSetName[];
  /** The metrics of its table (ncu's `Header`), printed on the details page. */
  readonly header: readonly SectionMetric[];
  /** Metrics it collects besides (ncu's `Metrics` and its charts' metrics): on the raw page only. */
  readonly body: readonly SectionMetric[];
  /** What ncu's section holds that this one does not, and why. */
  readonly leftOut: readonly LeftOutMetrics[];
}

/** Architectures where DRAM metrics exist (the filter ncu's sections repeat for dram__ metrics). */
export const dramArchitectures: readonly ComputeCapabilityRange[] = [
  { min: 75, max: 86 },
  { min: 89, max: 100 },
  { min: 103, max: 103 },
  { min: 120, max: 120 },
];

/** Whether `capability` lies in one of `ranges` (absent: every capability). */
export function appliesTo(ranges: readonly ComputeCapabilityRange[] | undefined, capability: ComputeCapability): boolean {
  return ranges === undefined || ranges.some((range) => capability >= (range.min ?? 0) && capability <= (range.max ?? Number.POSITIVE_INFINITY));
}

/**
 * The metric a section collects for `entry` on `capability`: the first option that applies, else
 * its own name where its filter applies, else none.
 */
export function metricOn(entry: SectionMetric, capability: ComputeCapability): string | undefined {
  const option = entry.options?.find((candidate) => appliesTo(candidate.on, capability));
  if (option !== undefined) return option.name;
  return appliesTo(entry.on, capability) ? entry.name : undefined;
}
