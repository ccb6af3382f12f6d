import type { Agent, MemoryRange, Queue } from '@kreplay/native';
import { median } from '../statistics.js';

/** Rates measured on the agent, for the physical floor of a dirty-pages window. */
export interface DeviceRates {
  /** Page hashing: bytes read per second. */
  readonly hashBytesPerSecond: number;
  /** Device-to-device copy: bytes copied (once) per second. */
  readonly copyBytesPerSecond: number;
}

async function secondsOf(queue: Queue, work: () => void, repetitions: number): Promise<number> {
  work();
  await queue.synchronize();
  const samples: number[] = [];
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    const start = performance.now();
    work();
    await queue.synchronize();
    samples.push((performance.now() - start) / 1000);
  }
  return median(samples);
}

/**
 * Measures page hashing over `hashed` (64 KiB pages, into device memory) and a device-to-device copy
 * of `copyBytes`, each the median of a few timed runs.
 */
export async function measureDeviceRates(agent: Agent, queue: Queue, hashed: readonly MemoryRange[], copyBytes: number): Promise<DeviceRates> {
  const pageBytes = 65536;
  const hashedBytes = hashed.reduce((sum, range) => sum + range.bytes, 0);
  const pages = hashed.reduce((sum, range) => sum + Math.ceil(range.bytes / pageBytes), 0);
  const hashes = agent.allocate(Math.max(8, pages * 8));
  const source = agent.allocate(copyBytes);
  const destination = agent.allocate(copyBytes);
  try {
    const hashSeconds = await secondsOf(queue, () => queue.enqueueHashPages(hashed, pageBytes, hashes.address), 5);
    const copySeconds = await secondsOf(
      queue,
      () => queue.enqueueCopy([{ source: source.address, destination: destination.address, bytes: copyBytes }]),
      5,
    );
    return { hashBytesPerSecond: hashedBytes / hashSeconds, copyBytesPerSecond: copyBytes / copySeconds };
  } finally {
    hashes.free();
    source.free();
    destination.free();
  }
}
