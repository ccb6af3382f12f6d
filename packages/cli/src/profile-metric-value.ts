import { ncuBaseUnit } from '@kreplay/bench';
import { isLaunchMetric, launchMetric } from './profile-launch.js';
import type { ProfileRow } from './profile-dispatches.js';
import type { ProfileReport } from './profile-report.js';

/** A metric's value for one profiled launch, in ncu's base unit. */
export interface ProfiledValue {
  readonly value: number;
  readonly unit: string;
}

/**
 * The value of `metric` for `row`: computed from the launch for ncu's launch statistics, else what
 * CUPTI collected, with ncu's base unit; undefined where there is none (not collected, or the
 * launch does not tell it).
 */
export function profiledValue(report: ProfileReport, row: ProfileRow, metric: string): ProfiledValue | undefined {
  if (isLaunchMetric(metric)) return launchMetric(metric, row);
  const value = row.metrics?.[metric];
  return value === undefined ? undefined : { value, unit: ncuBaseUnit(report.units[metric] ?? '') };
}

/** ncu's `CC` of an architecture (`sm_90` -> `9.0`, `sm_100a` -> `10.0`), or the architecture as it is. */
export function computeCapabilityText(architecture: string): string {
  const match = /^sm_(\d+)(\d)[a-z]?$/.exec(architecture);
  return match === null ? architecture : `${match[1]}.${match[2]}`;
}
