export { createTracker } from './tracker.js';
export type { MemoryEventSource, Tracker } from './tracker.js';
export type { TrackerOptions } from './tracker-options.js';
export type { TrackerStats } from './tracker-stats.js';
export type { TrackedAllocation } from './tracked-allocation.js';
export type { AllocationTag } from './allocation-tag.js';
export type { AllocationChange, AllocationChangeListener } from './allocation-change.js';
export type { ResolvedAccess } from './access.js';
export type {
  ArgumentResolution,
  ReachedAllocation,
  UnresolvedPointer,
} from './argument-resolution.js';
export { mergeResolutions } from './merge-resolutions.js';
