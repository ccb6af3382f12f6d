/** Counters of what the tracker saw, for diagnosis. Every field counts since the tracker was created. */
export interface TrackerStats {
  /** Memory events received from the runtime. */
  readonly events: number;
  /** Free events for an address where no tracked allocation starts (e.g. allocated before the tracker existed). */
  readonly unknownFrees: number;
  /** Tracked allocations dropped because a new allocation overlapped them (their free was never seen). */
  readonly overlappedAllocations: number;
  /** Host-buffer events ignored because `trackHostBuffers` is false. */
  readonly ignoredHostEvents: number;
  /** Events with impossible fields (e.g. zero bytes, a negative address), ignored. */
  readonly malformedEvents: number;
  /** Errors thrown by `onChange` listeners (each was passed to `onListenerError`). */
  readonly listenerErrors: number;
}

/** The tracker's own, mutable counters. */
export type MutableTrackerStats = { -readonly [K in keyof TrackerStats]: TrackerStats[K] };

/** Fresh counters, all zero. */
export function createTrackerStats(): MutableTrackerStats {
  return {
    events: 0,
    unknownFrees: 0,
    overlappedAllocations: 0,
    ignoredHostEvents: 0,
    malformedEvents: 0,
    listenerErrors: 0,
  };
}
