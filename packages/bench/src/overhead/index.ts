export { measureReplayOverhead } from './measure-replay-overhead.js';
export type { OverheadOptions, OverheadResult, OverheadRow } from './measure-replay-overhead.js';
export { overheadVariants } from './overhead-variants.js';
export type { OverheadVariant } from './overhead-variants.js';
export { shapeWorkload } from './workload-shapes.js';
export type { WorkloadShape } from './workload-shapes.js';
export type { DeviceRates } from './device-rates.js';
