#!/usr/bin/env node
// Measures the cuda driver on the machine's first GPU and prints a table (and writes JSON to the
// path given as the first argument): page hashing, the fused conditional copy, copies by direction
// and by path (cuMemcpyAsync per segment vs one chunk-copy kernel), and fixed costs. Device times
// come from TimingEvents around the work (median of several runs after a warm-up); bandwidth
// counts each byte once (read for hashing, copied for copies). Not a test: it asserts nothing.
//   node scripts/measure-cuda.mjs [report.json]      (after `pnpm --filter @kreplay/native build`)
import { writeFileSync } from 'node:fs';
import { openRuntime } from '../dist/index.js';

const GiB = 2 ** 30;
const MiB = 2 ** 20;
const KiB = 2 ** 10;
const rows = [];

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Device milliseconds of `enqueue()` (median of `repeat` runs after one warm-up). */
async function deviceTime(queue, enqueue, repeat = 5) {
  const times = [];
  for (let run = -1; run < repeat; run += 1) {
    const start = queue.recordEvent();
    enqueue();
    const end = queue.recordEvent();
    await queue.synchronize();
    if (run >= 0) times.push(end.elapsedMillisecondsSince(start));
  }
  return median(times);
}

function record(name, bytes, milliseconds, extra = {}) {
  const row = { name, bytes, milliseconds, gigabytesPerSecond: bytes > 0 ? bytes / milliseconds / 1e6 : null, ...extra };
  rows.push(row);
  const rate = row.gigabytesPerSecond === null ? '' : `${row.gigabytesPerSecond.toFixed(1).padStart(8)} GB/s`;
  console.log(`${name.padEnd(58)} ${milliseconds.toFixed(3).padStart(10)} ms ${rate}`);
}

// KREPLAY_CUDA_COPY_PATH was removed (the driver picks the path itself); its finding is in docs/measurement-conditions.md.
async function withRuntime(copyPath, body) {
  if (copyPath) process.env.KREPLAY_CUDA_COPY_PATH = copyPath;
  const runtime = await openRuntime({ driver: 'cuda' });
  delete process.env.KREPLAY_CUDA_COPY_PATH;
  try {
    await body(runtime, runtime.agents[0], runtime.agents[0].createQueue());
  } finally {
    await runtime.dispose();
  }
}

function segmentsOf(count, bytes, source, destination, stride = bytes) {
  return Array.from({ length: count }, (_, index) => ({ source: source + index * stride, destination: destination + index * stride, bytes }));
}

const footprint = Number(process.env.KREPLAY_MEASURE_BYTES ?? 4 * GiB);

await withRuntime(undefined, async (runtime, agent, queue) => {
  console.log(`${agent.info.name} (${agent.info.architecture}), ${(agent.info.deviceMemoryBytes / GiB).toFixed(1)} GiB, ${agent.info.hostLink?.name}; ${runtime.versions.driver}`);
  const memory = agent.allocate(footprint);
  const mirror = agent.allocate(footprint);
  queue.enqueueKernel(runtime.kernels.fill, { destination: memory.address, bytes: footprint, value: 0x9e3779b9 });
  queue.enqueueKernel(runtime.kernels.scatterWrite, { buffer: memory.address, bytes: footprint, pageBytes: 4096, fraction: 1, seed: 7, source: memory.address, sourceBytes: 0 });
  record('fill (write)', footprint, await deviceTime(queue, () => queue.enqueueKernel(runtime.kernels.fill, { destination: mirror.address, bytes: footprint, value: 1 })));
  for (const pageBytes of [64 * KiB, 4 * KiB]) {
    const pages = footprint / pageBytes;
    const hashes = agent.allocate(pages * 8);
    record(`hash pages of ${pageBytes / KiB} KiB (bytes read)`, footprint, await deviceTime(queue, () => queue.enqueueHashPages([{ address: memory.address, bytes: footprint }], pageBytes, hashes.address)));
    const list = agent.allocate(pages * 4);
    const count = agent.allocate(4);
    const capture = { segments: [{ source: memory.address, destination: mirror.address, bytes: footprint }], pageBytes, hashedSide: 'source', storedHashesAddress: hashes.address, pageListAddress: list.address, pageCountAddress: count.address };
    record(`conditional copy, ${pageBytes / KiB} KiB pages, none changed (bytes hashed)`, footprint, await deviceTime(queue, () => queue.enqueueCopyChangedPages({ ...capture, updateStoredHashes: false })));
    const zeroHashes = agent.allocate(pages * 8);
    queue.enqueueKernel(runtime.kernels.fill, { destination: zeroHashes.address, bytes: pages * 8, value: 0 });
    record(`conditional copy, ${pageBytes / KiB} KiB pages, all changed (bytes copied)`, footprint, await deviceTime(queue, () => queue.enqueueCopyChangedPages({ ...capture, storedHashesAddress: zeroHashes.address, updateStoredHashes: false })));
    // A page list of every 10th page, then copied again.
    const tenth = Array.from({ length: pages / 10 }, (_, index) => index * 10);
    await agent.write(list.address, new Uint8Array(Uint32Array.from(tenth).buffer));
    await agent.write(count.address, new Uint8Array(Uint32Array.of(tenth.length).buffer));
    record(`page-list copy, ${pageBytes / KiB} KiB pages, 10% of pages (bytes copied)`, tenth.length * pageBytes, await deviceTime(queue, () => queue.enqueueCopyPageList({ segments: capture.segments, pageBytes, pageListAddress: list.address, pageCountAddress: count.address })));
    for (const allocation of [hashes, list, count, zeroHashes]) allocation.free();
  }
  record('triad (a = b + s c, bytes moved)', 3 * (footprint / 4), await deviceTime(queue, () => queue.enqueueKernel(runtime.kernels.triad, { a: mirror.address, b: memory.address, c: memory.address + footprint / 4, scalar: 0.5, count: footprint / 16 })));
  await queue.synchronize();
  memory.free();
  mirror.free();
});

for (const path of ['api', 'kernel']) {
  await withRuntime(path, async (runtime, agent, queue) => {
    const source = agent.allocate(footprint);
    const destination = agent.allocate(footprint);
    queue.enqueueKernel(runtime.kernels.fill, { destination: source.address, bytes: footprint, value: 3 });
    record(`D2D copy, 1 segment of ${footprint / GiB} GiB [${path}]`, footprint, await deviceTime(queue, () => queue.enqueueCopy([{ source: source.address, destination: destination.address, bytes: footprint }])));
    for (const [count, bytes] of [[4096, 4 * KiB], [4096, 64 * KiB], [65536, 4 * KiB]]) {
      if (2 * count * bytes > footprint) continue;
      const plan = segmentsOf(count, bytes, source.address, destination.address, 2 * bytes);
      record(`D2D copy, ${count} segments of ${bytes / KiB} KiB [${path}]`, count * bytes, await deviceTime(queue, () => queue.enqueueCopy(plan)));
    }
    const pinned = runtime.allocateHost(1 * GiB, { pinned: true });
    record(`D2H copy to pinned, 1 segment of 1 GiB [${path}]`, GiB, await deviceTime(queue, () => queue.enqueueCopy([{ source: source.address, destination: pinned.address, bytes: GiB }])));
    record(`H2D copy from pinned, 1 segment of 1 GiB [${path}]`, GiB, await deviceTime(queue, () => queue.enqueueCopy([{ source: pinned.address, destination: destination.address, bytes: GiB }])));
    const small = segmentsOf(4096, 4 * KiB, source.address, pinned.address, 8 * KiB);
    record(`D2H copy to pinned, 4096 segments of 4 KiB [${path}]`, 4096 * 4 * KiB, await deviceTime(queue, () => queue.enqueueCopy(small)));
    record(`H2D copy from pinned, 4096 segments of 4 KiB [${path}]`, 4096 * 4 * KiB, await deviceTime(queue, () => queue.enqueueCopy(small.map(({ source: from, destination: to, bytes }) => ({ source: to, destination: from, bytes })))));
    pinned.free();
    source.free();
    destination.free();
  });
}

await withRuntime(undefined, async (runtime, agent, queue) => {
  const bytes = 512 * MiB;
  const device = agent.allocate(bytes);
  const pageable = runtime.allocateHost(bytes, { pinned: false });
  record('D2H copy to pageable, 512 MiB (host path)', bytes, await deviceTime(queue, () => queue.enqueueCopy([{ source: device.address, destination: pageable.address, bytes }]), 3));
  record('H2D copy from pageable, 512 MiB (host path)', bytes, await deviceTime(queue, () => queue.enqueueCopy([{ source: pageable.address, destination: device.address, bytes }]), 3));
  // Fixed costs, by the wall clock: a synchronize of an idle queue, and one small kernel then synchronize.
  const small = agent.allocate(4096);
  const wall = async (body, repeat = 200) => {
    const times = [];
    for (let run = 0; run < repeat; run += 1) {
      const started = performance.now();
      await body();
      times.push(performance.now() - started);
    }
    return median(times);
  };
  record('synchronize of an idle queue (wall)', 0, await wall(() => queue.synchronize()));
  record('4 KiB fill + synchronize (wall)', 0, await wall(() => {
    queue.enqueueKernel(runtime.kernels.fill, { destination: small.address, bytes: 4096, value: 1 });
    return queue.synchronize();
  }));
  const batch = 1000;
  const started = performance.now();
  const start = queue.recordEvent();
  for (let index = 0; index < batch; index += 1) queue.enqueueKernel(runtime.kernels.fill, { destination: small.address, bytes: 4096, value: index });
  const enqueued = performance.now() - started;
  const end = queue.recordEvent();
  await queue.synchronize();
  record(`${batch} 4 KiB fills: JavaScript enqueue time per fill`, 0, enqueued / batch);
  record(`${batch} 4 KiB fills: device time per fill`, 0, end.elapsedMillisecondsSince(start) / batch);
  small.free();
  device.free();
  pageable.free();
});

if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify({ footprint, rows }, null, 2));
