import type { Agent, DeviceAllocation, Queue } from '@kreplay/native';
import type { Tracker } from '@kreplay/tracker';
import { backgroundArrayBytes } from '../sweep/memory-bounds.js';

/** The other streams' throughput alone and during replay. */
export interface BackgroundMeasurement {
  /** Background streams (the run's streams minus the replayed one). */
  readonly streams: number;
  /** Bytes one triad kernel reads and writes. */
  readonly bytesPerKernel: number;
  readonly soloKernelsPerSecond: number;
  readonly concurrentKernelsPerSecond: number;
  /** 1 - concurrent / solo: the share of throughput the other streams lost to replay. */
  readonly throughputLost: number;
}

/** Streams of triad kernels on their own queues and allocations, kept busy until stopped. */
export interface BackgroundStreams {
  readonly bytesPerKernel: number;
  /** Runs the streams for `seconds` with nothing else; kernels per second over all streams. */
  measureSolo(seconds: number): Promise<number>;
  /** Starts them; the returned function (idempotent) stops them and gives kernels per second since the start. */
  start(): () => Promise<number>;
  /** Stops them if running, then frees their queues and arrays. */
  dispose(): Promise<void>;
}

interface Stream {
  readonly queue: Queue;
  readonly arrays: readonly DeviceAllocation[];
}

/**
 * `count` background streams, each a queue running `a = b + s * c` over three arrays of its own. The
 * arrays are tagged `excluded` in the tracker, so every strategy snapshots the same footprint.
 */
export function createBackgroundStreams(agent: Agent, tracker: Tracker, count: number, footprintBytes: number): BackgroundStreams {
  const arrayBytes = backgroundArrayBytes(footprintBytes);
  const streams: Stream[] = Array.from({ length: count }, () => {
    const arrays = [0, 1, 2].map(() => agent.allocate(arrayBytes));
    arrays.forEach((array) => tracker.tag(array.address, 'excluded'));
    return { queue: agent.createQueue(), arrays };
  });
  const kernel = agent.runtime.kernels.triad;
  const loop = async (stream: Stream, running: () => boolean): Promise<number> => {
    const [a, b, c] = stream.arrays as [DeviceAllocation, DeviceAllocation, DeviceAllocation];
    let kernels = 0;
    while (running()) {
      stream.queue.enqueueKernel(kernel, { a: a.address, b: b.address, c: c.address, scalar: 1.5, count: arrayBytes / 4 });
      await stream.queue.synchronize();
      kernels += 1;
    }
    return kernels;
  };
  let stopCurrent: (() => Promise<number>) | undefined;
  const start = () => {
    let running = true;
    const started = performance.now();
    const loops = streams.map((stream) => loop(stream, () => running));
    let stopped: Promise<number> | undefined;
    stopCurrent = () =>
      (stopped ??= (async () => {
        running = false;
        const kernels = (await Promise.all(loops)).reduce((sum, value) => sum + value, 0);
        return kernels / ((performance.now() - started) / 1000);
      })());
    return stopCurrent;
  };
  return {
    bytesPerKernel: 3 * arrayBytes,
    async measureSolo(seconds) {
      const stop = start();
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return stop();
    },
    start,
    async dispose() {
      await stopCurrent?.().catch(() => 0);
      for (const stream of streams) {
        await stream.queue.dispose();
        stream.arrays.forEach((array) => array.free());
      }
    },
  };
}
