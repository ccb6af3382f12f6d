import { mean, median } from '../statistics.js';
import type { DispatchSample, SampleBytes } from './dispatch-sample.js';

/** Mean milliseconds per dispatch of each phase (device time for capture, passes and restores). */
export interface PhaseMilliseconds {
  readonly quiesce: number;
  readonly lockWait: number;
  readonly capture: number;
  readonly passes: number;
  readonly restores: number;
  readonly verify: number;
}

/** Achieved rates: bytes of a direction over the device time of the phases that move them. */
export interface AchievedBandwidth {
  /** Bytes copied over capture + restore time. */
  readonly snapshotBytesPerSecond: number | null;
  /** Device-to-host bytes over capture time (captures are what moves bytes to the host). */
  readonly deviceToHostBytesPerSecond: number | null;
  /** Host-to-device bytes over restore time. */
  readonly hostToDeviceBytesPerSecond: number | null;
}

/** A run's samples, summarised. */
export interface RowSummary {
  /** Wall time of the run's dispatches over their count: the cold first one amortised. */
  readonly meanDispatchMs: number;
  /** The median wall time of dispatches after the first; null with one dispatch. */
  readonly steadyDispatchMs: number | null;
  readonly firstDispatchMs: number;
  readonly phaseMs: PhaseMilliseconds;
  /** Capture plus restores, mean per dispatch. */
  readonly snapshotMs: number;
  readonly bytesPerDispatch: SampleBytes & { readonly copied: number };
  /** footprint x passes: what the reference design copies per dispatch. */
  readonly bytesModelPerDispatch: number;
  readonly bandwidth: AchievedBandwidth;
  readonly replayed: number;
  readonly declined: number;
  /** Distinct decline reasons, at most three. */
  readonly declineReasons: readonly string[];
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const rate = (bytes: number, milliseconds: number) => (bytes > 0 && milliseconds > 0 ? bytes / (milliseconds / 1000) : null);

/** Summarises the samples of a run (at least one) of `passes` passes over `footprintBytes`. */
export function summarizeSamples(samples: readonly DispatchSample[], footprintBytes: number, passes: number): RowSummary {
  const perDispatch = (pick: (sample: DispatchSample) => number) => mean(samples.map(pick));
  const phaseMs: PhaseMilliseconds = {
    quiesce: perDispatch((sample) => sample.quiesceMs),
    lockWait: perDispatch((sample) => sample.lockWaitMs),
    capture: perDispatch((sample) => sample.captureMs ?? 0),
    passes: perDispatch((sample) => sum(sample.passMs)),
    restores: perDispatch((sample) => sum(sample.restoreMs)),
    verify: perDispatch((sample) => sample.verifyMs),
  };
  const bytes = (pick: (value: SampleBytes) => number) => perDispatch((sample) => pick(sample.bytes));
  const bytesPerDispatch = {
    deviceToDevice: bytes((value) => value.deviceToDevice),
    deviceToHost: bytes((value) => value.deviceToHost),
    hostToDevice: bytes((value) => value.hostToDevice),
    hostToHost: bytes((value) => value.hostToHost),
    hashed: bytes((value) => value.hashed),
  };
  const copied = bytesPerDispatch.deviceToDevice + bytesPerDispatch.deviceToHost + bytesPerDispatch.hostToDevice + bytesPerDispatch.hostToHost;
  const snapshotMs = phaseMs.capture + phaseMs.restores;
  const reasons = new Set(samples.flatMap((sample) => (sample.declineReason === undefined ? [] : [sample.declineReason])));
  return {
    meanDispatchMs: perDispatch((sample) => sample.wallMs),
    steadyDispatchMs: samples.length > 1 ? median(samples.slice(1).map((sample) => sample.wallMs)) : null,
    firstDispatchMs: samples[0]!.wallMs,
    phaseMs,
    snapshotMs,
    bytesPerDispatch: { ...bytesPerDispatch, copied },
    bytesModelPerDispatch: footprintBytes * passes,
    bandwidth: {
      snapshotBytesPerSecond: rate(copied, snapshotMs),
      deviceToHostBytesPerSecond: rate(bytesPerDispatch.deviceToHost, phaseMs.capture),
      hostToDeviceBytesPerSecond: rate(bytesPerDispatch.hostToDevice, phaseMs.restores),
    },
    replayed: samples.filter((sample) => sample.replayed).length,
    declined: reasons.size === 0 ? 0 : samples.filter((sample) => sample.declineReason !== undefined).length,
    declineReasons: [...reasons].slice(0, 3),
  };
}
