import type { CaptureFolder } from '@kreplay/native';
import type { ProfileReport } from './profile-report.js';

/**
 * The profile of a capture with each row's launch shape (grid and block) from the captured launch
 * of its sequence, so that profiles can be compared launch by launch with `--match grid`.
 */
export function withLaunchShapes(report: ProfileReport, folder: CaptureFolder): ProfileReport {
  const shapes = new Map(folder.launches.map((launch) => [launch.sequence, launch.shape]));
  return {
    ...report,
    dispatches: report.dispatches.map((row) => {
      const shape = shapes.get(row.dispatch);
      return shape === undefined ? row : { ...row, grid: [...shape.grid] as [number, number, number], block: [...shape.block] as [number, number, number] };
    }),
  };
}
