import type { Agent, CopySegment, Queue } from '@kreplay/native';

/** The plain copies (and the page hash) whose rate bounds what a snapshot can do. */
export const ceilingPaths = [
  'device-to-device',
  'device-to-host-pinned',
  'host-pinned-to-device',
  'device-to-host-pageable',
  'host-pageable-to-device',
  'hash',
] as const;

/** One path of the ceiling. */
export type CeilingPath = (typeof ceilingPaths)[number];

/** The measured rate of one path. */
export interface CeilingMeasurement {
  readonly path: CeilingPath;
  /** Bytes one timed plan moves (or hashes): the footprint. */
  readonly bytes: number;
  /** Host seconds of each timed plan, enqueue to completion. */
  readonly samplesSeconds: readonly number[];
  /** The fastest sample: a ceiling is the best the path did. */
  readonly seconds: number;
  readonly bytesPerSecond: number;
}

/** The raw copy ceiling at one footprint: a plain copy plan of the footprint's bytes on each path. */
export interface CopyCeiling {
  readonly footprintBytes: number;
  /** The buffers copied between; a larger footprint repeats them within one plan. */
  readonly bufferBytes: number;
  readonly paths: readonly CeilingMeasurement[];
}

/** Options of {@link measureCopyCeilings}. */
export interface CopyCeilingOptions {
  readonly repetitions: number;
  /** The largest buffer copied between; a larger footprint repeats it within one plan. */
  readonly bufferBytes: number;
  /** Stops between footprints when aborted. */
  readonly signal?: AbortSignal;
}

const pageBytes = 65536;

/**
 * Measures the raw copy ceiling on the agent at each footprint: one copy plan of the footprint's
 * bytes device to device, to and from pinned host memory, to and from pageable host memory, and a
 * page hash (64 KiB pages) of the same bytes. Each is run once untimed, then `repetitions` times;
 * the fastest counts. The buffers are allocated once for all footprints (pinning is slow).
 * @throws OutOfMemoryError when the buffers cannot be allocated.
 */
export async function measureCopyCeilings(agent: Agent, footprints: readonly number[], options: CopyCeilingOptions): Promise<CopyCeiling[]> {
  if (footprints.length === 0) return [];
  const largest = Math.max(...footprints);
  const bufferBytes = Math.min(largest, options.bufferBytes);
  const pages = Math.ceil(largest / pageBytes) + Math.ceil(largest / bufferBytes);
  const runtime = agent.runtime;
  const held: { free(): void }[] = [];
  const hold = <T extends { free(): void }>(allocation: T): T => (held.push(allocation), allocation);
  const queue = agent.createQueue();
  try {
    const device = hold(agent.allocate(bufferBytes));
    const other = hold(agent.allocate(bufferBytes));
    const hashes = hold(agent.allocate(pages * 8));
    const pinned = hold(runtime.allocateHost(bufferBytes, { pinned: true }));
    const pageable = hold(runtime.allocateHost(bufferBytes, { pinned: false }));
    const ceilings: CopyCeiling[] = [];
    for (const footprintBytes of footprints) {
      if (options.signal?.aborted) break;
      const plan = (source: number, destination: number) => repeatedPlan(source, destination, Math.min(bufferBytes, footprintBytes), footprintBytes);
      const work: Record<CeilingPath, () => void> = {
        'device-to-device': () => queue.enqueueCopy(plan(device.address, other.address)),
        'device-to-host-pinned': () => queue.enqueueCopy(plan(device.address, pinned.address)),
        'host-pinned-to-device': () => queue.enqueueCopy(plan(pinned.address, device.address)),
        'device-to-host-pageable': () => queue.enqueueCopy(plan(device.address, pageable.address)),
        'host-pageable-to-device': () => queue.enqueueCopy(plan(pageable.address, device.address)),
        hash: () => queue.enqueueHashPages(plan(device.address, 0).map(({ source, bytes }) => ({ address: source, bytes })), pageBytes, hashes.address),
      };
      const paths: CeilingMeasurement[] = [];
      for (const path of ceilingPaths) paths.push(await timePath(queue, path, footprintBytes, work[path], options.repetitions));
      ceilings.push({ footprintBytes, bufferBytes: Math.min(bufferBytes, footprintBytes), paths });
    }
    return ceilings;
  } finally {
    await queue.dispose();
    held.forEach((allocation) => allocation.free());
  }
}

async function timePath(queue: Queue, path: CeilingPath, bytes: number, enqueue: () => void, repetitions: number): Promise<CeilingMeasurement> {
  enqueue();
  await queue.synchronize();
  const samplesSeconds: number[] = [];
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    const started = performance.now();
    enqueue();
    await queue.synchronize();
    samplesSeconds.push((performance.now() - started) / 1000);
  }
  const seconds = Math.min(...samplesSeconds);
  return { path, bytes, samplesSeconds, seconds, bytesPerSecond: bytes / seconds };
}

/** `totalBytes` as consecutive segments of at most `bufferBytes`, each from the start of the buffers. */
function repeatedPlan(source: number, destination: number, bufferBytes: number, totalBytes: number): CopySegment[] {
  const plan: CopySegment[] = [];
  for (let offset = 0; offset < totalBytes; offset += bufferBytes) {
    plan.push({ source, destination, bytes: Math.min(bufferBytes, totalBytes - offset) });
  }
  return plan;
}
