import type { Agent, MemoryRange, Queue } from '@kreplay/native';
import { median } from '../statistics.js';

/** Rates measured on the agent (device time), for the physical floor and the pinned-staging ratio. */
export interface DeviceRates {
  /** Page hashing: bytes read per second. */
  readonly hashBytesPerSecond: number;
  /** Device-to-device copy: bytes copied (once) per second. */
  readonly copyBytesPerSecond: number;
  /** A raw copy plan device -> pinned host buffer, and back: the host link's ceiling. */
  readonly pinnedDeviceToHostBytesPerSecond: number;
  readonly pinnedHostToDeviceBytesPerSecond: number;
}

/**
 * Device seconds of one `work`, the median of a few runs after a warm-up. Each run enqueues the
 * work once before its start event, so the device is busy while the host enqueues the timed ones
 * (otherwise the device would idle between the start event and the first work), then `perRun`
 * works between two events.
 */
async function secondsOf(queue: Queue, work: () => void, repetitions: number, perRun = 3): Promise<number> {
  work();
  await queue.synchronize();
  const samples: number[] = [];
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    work();
    const start = queue.recordEvent();
    for (let index = 0; index < perRun; index += 1) work();
    const end = queue.recordEvent();
    await queue.synchronize();
    samples.push(end.elapsedMillisecondsSince(start) / 1000 / perRun);
  }
  return median(samples);
}

/**
 * Measures page hashing over `hashed` (64 KiB pages, into device memory), a device-to-device copy of
 * `copyBytes` and raw pinned copies of `copyBytes` each way, each the median of a few runs timed by
 * device events, back to back (the device never waits for the host inside a timed run).
 */
export async function measureDeviceRates(agent: Agent, queue: Queue, hashed: readonly MemoryRange[], copyBytes: number): Promise<DeviceRates> {
  const pageBytes = 65536;
  const hashedBytes = hashed.reduce((sum, range) => sum + range.bytes, 0);
  const pages = hashed.reduce((sum, range) => sum + Math.ceil(range.bytes / pageBytes), 0);
  const hashes = agent.allocate(Math.max(8, pages * 8));
  const source = agent.allocate(copyBytes);
  const destination = agent.allocate(copyBytes);
  const pinned = agent.runtime.allocateHost(copyBytes, { pinned: true });
  try {
    const hashSeconds = await secondsOf(queue, () => queue.enqueueHashPages(hashed, pageBytes, hashes.address), 5);
    const copySeconds = await secondsOf(
      queue,
      () => queue.enqueueCopy([{ source: source.address, destination: destination.address, bytes: copyBytes }]),
      5,
    );
    const toHostSeconds = await secondsOf(queue, () => queue.enqueueCopy([{ source: source.address, destination: pinned.address, bytes: copyBytes }]), 5);
    const toDeviceSeconds = await secondsOf(queue, () => queue.enqueueCopy([{ source: pinned.address, destination: source.address, bytes: copyBytes }]), 5);
    return {
      hashBytesPerSecond: hashedBytes / hashSeconds,
      copyBytesPerSecond: copyBytes / copySeconds,
      pinnedDeviceToHostBytesPerSecond: copyBytes / toHostSeconds,
      pinnedHostToDeviceBytesPerSecond: copyBytes / toDeviceSeconds,
    };
  } finally {
    pinned.free();
    hashes.free();
    source.free();
    destination.free();
  }
}
