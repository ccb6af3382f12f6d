import type { DispatchResult } from '@kreplay/replay';

/** Bytes one dispatch moved and hashed, by direction. */
export interface SampleBytes {
  readonly deviceToDevice: number;
  readonly deviceToHost: number;
  readonly hostToDevice: number;
  readonly hostToHost: number;
  readonly hashed: number;
}

/** One dispatch of a run, as measured: every phase's time and every byte. */
export interface DispatchSample {
  /** 0-based index of the dispatch in its run (0 is the cold one). */
  readonly index: number;
  /** Host milliseconds from the dispatch call to its result. */
  readonly wallMs: number;
  readonly quiesceMs: number;
  readonly lockWaitMs: number;
  /** Device milliseconds of the capture; null when nothing was captured. */
  readonly captureMs: number | null;
  readonly passMs: readonly number[];
  readonly restoreMs: readonly number[];
  readonly verifyMs: number;
  readonly bytes: SampleBytes;
  /** Staging bytes the dispatch held, by tier. */
  readonly stagingBytes: Readonly<Record<string, number>>;
  readonly replayed: boolean;
  readonly tier: string | null;
  readonly declineReason?: string;
}

/** The sample of one engine dispatch. */
export function sampleOf(index: number, result: DispatchResult): DispatchSample {
  const { timings, bytes } = result;
  return {
    index,
    wallMs: timings.wallMs,
    quiesceMs: timings.quiesceMs,
    lockWaitMs: timings.lockWaitMs,
    captureMs: timings.captureMs,
    passMs: [...timings.passMs],
    restoreMs: [...timings.restoreMs],
    verifyMs: timings.verifyMs,
    bytes: {
      deviceToDevice: bytes.deviceToDevice,
      deviceToHost: bytes.deviceToHost,
      hostToDevice: bytes.hostToDevice,
      hostToHost: bytes.hostToHost,
      hashed: bytes.hashed,
    },
    stagingBytes: { ...bytes.staging },
    replayed: result.replayed,
    tier: result.tier,
    ...(result.declineReason === undefined ? {} : { declineReason: result.declineReason }),
  };
}
