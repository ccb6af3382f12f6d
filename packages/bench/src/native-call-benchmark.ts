import type { CopySegment, Runtime } from '@kreplay/native';
import { median, secondsSince } from './statistics.js';

/** Options of {@link measureNativeCalls}. */
export interface NativeCallBenchmarkOptions {
  /** Bytes each copy plan moves. Default 64 MiB. */
  readonly planBytes?: number;
  /** Segment counts to try for the same bytes. Default [1, 64, 4096]. */
  readonly segmentCounts?: readonly number[];
  /** Timed repetitions per measurement (the median is reported). Default 5. */
  readonly repetitions?: number;
  /** Empty plans per timing of the call cost. Default 2000. */
  readonly emptyCalls?: number;
}

/** Throughput of one copy-plan shape. */
export interface CopyPlanThroughput {
  readonly segments: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly bytesPerSecond: number;
}

/** What a native call and a copy plan cost on one agent of a driver. */
export interface NativeCallBenchmarkResult {
  readonly driver: string;
  readonly agent: string;
  /** Enqueueing an empty plan, amortised over many calls with one wait at the end. */
  readonly emptyPlanEnqueueMicroseconds: number;
  /** Enqueueing an empty plan and waiting for it: the round trip of one host wait. */
  readonly emptyPlanRoundTripMicroseconds: number;
  /** Device-to-device copy plans of `planBytes`, split into each segment count. */
  readonly copyPlans: readonly CopyPlanThroughput[];
}

/**
 * Measures the per-call cost of an empty copy plan and the throughput of copy plans on the first
 * agent of `runtime`. A benchmark, not a test: it reports what it measured.
 */
export async function measureNativeCalls(
  runtime: Runtime,
  options: NativeCallBenchmarkOptions = {},
): Promise<NativeCallBenchmarkResult> {
  const planBytes = options.planBytes ?? 64 * 2 ** 20;
  const repetitions = options.repetitions ?? 5;
  const emptyCalls = options.emptyCalls ?? 2000;
  const agent = runtime.agents[0]!;
  await using queue = agent.createQueue();
  const source = agent.allocate(planBytes);
  const destination = agent.allocate(planBytes);
  try {
    const enqueueSamples: number[] = [];
    const roundTripSamples: number[] = [];
    for (let repetition = 0; repetition < repetitions; repetition += 1) {
      let start = process.hrtime.bigint();
      for (let call = 0; call < emptyCalls; call += 1) queue.enqueueCopy([]);
      await queue.synchronize();
      enqueueSamples.push((secondsSince(start) / emptyCalls) * 1e6);
      start = process.hrtime.bigint();
      for (let call = 0; call < emptyCalls / 10; call += 1) {
        queue.enqueueCopy([]);
        await queue.synchronize();
      }
      roundTripSamples.push((secondsSince(start) / (emptyCalls / 10)) * 1e6);
    }
    const copyPlans: CopyPlanThroughput[] = [];
    for (const segments of options.segmentCounts ?? [1, 64, 4096]) {
      const plan = splitPlan(source.address, destination.address, planBytes, segments);
      queue.enqueueCopy(plan);
      await queue.synchronize();
      const samples: number[] = [];
      for (let repetition = 0; repetition < repetitions; repetition += 1) {
        const start = process.hrtime.bigint();
        queue.enqueueCopy(plan);
        await queue.synchronize();
        samples.push(secondsSince(start));
      }
      const seconds = median(samples);
      copyPlans.push({ segments, bytes: planBytes, seconds, bytesPerSecond: planBytes / seconds });
    }
    return {
      driver: runtime.driver,
      agent: agent.info.name,
      emptyPlanEnqueueMicroseconds: median(enqueueSamples),
      emptyPlanRoundTripMicroseconds: median(roundTripSamples),
      copyPlans,
    };
  } finally {
    source.free();
    destination.free();
  }
}

/** `bytes` from `source` to `destination` as `segments` equal, consecutive segments. */
export function splitPlan(source: number, destination: number, bytes: number, segments: number): CopySegment[] {
  const size = Math.floor(bytes / segments);
  return Array.from({ length: segments }, (_, index) => {
    const offset = index * size;
    return { source: source + offset, destination: destination + offset, bytes: index === segments - 1 ? bytes - offset : size };
  });
}
