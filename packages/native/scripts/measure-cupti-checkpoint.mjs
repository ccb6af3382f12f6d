#!/usr/bin/env node
// Measures runtime.checkpoint (the CUPTI Checkpoint API) on the machine's first GPU and checks that
// every restore is bit-exact (64 KiB page hashes of the whole footprint against those taken before
// the save). Footprints from KREPLAY_CHECKPOINT_GIB (default "1"; e.g. "1,8"). For each: the first
// save, later saves (overwrite), restores after a scatter-write of 25% of the pages, and a steady
// loop per dispatch like DESIGN.md's (save, 5 passes, 4 restores, each awaited). Wall times are
// from the JavaScript call to its settled Promise (so they include the wait for an idle context and
// the Promise round trip); "cupti" is the time inside cuptiCheckpoint*. Not a test: it reports.
//   node scripts/measure-cupti-checkpoint.mjs [report.json]      (after `pnpm --filter @kreplay/native build`)
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openRuntime } from '../dist/index.js';

const GiB = 2 ** 30;
const pageBytes = 64 * 1024;
const rows = [];
const footprints = (process.env.KREPLAY_CHECKPOINT_GIB ?? '1').split(',').map(Number);

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

function record(name, wall, cupti, extra = {}) {
  const row = { name, wallMilliseconds: median(wall), wallMin: Math.min(...wall), wallMax: Math.max(...wall), cuptiMilliseconds: cupti.length ? median(cupti) : null, runs: wall.length, ...extra };
  rows.push(row);
  console.log(`${name.padEnd(64)} wall ${row.wallMilliseconds.toFixed(3).padStart(9)} ms (${row.wallMin.toFixed(3)}-${row.wallMax.toFixed(3)})  cupti ${row.cuptiMilliseconds === null ? '-' : row.cuptiMilliseconds.toFixed(3).padStart(9)} ms`);
}

async function timed(step, session) {
  const started = performance.now();
  await step();
  return [performance.now() - started, session.lastStepMilliseconds];
}

const runtime = await openRuntime({ driver: 'cuda' });
const agent = runtime.agents[0];
const reason = runtime.checkpoint ? runtime.checkpoint.unavailableReason() : `the ${runtime.driver} driver has no runtime.checkpoint`;
console.log(`${agent.info.name}; ${runtime.versions.driver}; checkpoint: ${reason ?? 'available'}`);
let exact = true;
if (reason === null) {
  for (const gib of footprints) {
    const bytes = gib * GiB;
    const memory = agent.allocate(bytes);
    const queue = agent.createQueue();
    queue.enqueueKernel(runtime.kernels.fill, { destination: memory.address, bytes, value: 0x9e3779b9 });
    queue.enqueueKernel(runtime.kernels.scatterWrite, { buffer: memory.address, bytes, pageBytes: 4096, fraction: 1, seed: 11, source: memory.address, sourceBytes: 0 });
    const before = await queue.hashPages([{ address: memory.address, bytes }], pageBytes);
    const session = await runtime.checkpoint.open(queue);
    const label = `${gib} GiB`;
    const first = await timed(() => session.save(), session);
    record(`${label}: first save`, [first[0]], [first[1]]);
    const saves = [];
    const restores = [];
    let restoresExact = 0;
    for (let run = 0; run < 6; run += 1) {
      saves.push(await timed(() => session.save(), session));
      queue.enqueueKernel(runtime.kernels.scatterWrite, { buffer: memory.address, bytes, pageBytes: 4096, fraction: 0.25, seed: 100 + run, source: memory.address, sourceBytes: 0 });
      restores.push(await timed(() => session.restore(), session));
      const after = await queue.hashPages([{ address: memory.address, bytes }], pageBytes);
      const same = after.every((hash, index) => hash === before[index]);
      if (same) restoresExact += 1;
      exact &&= same;
    }
    record(`${label}: save (overwrite)`, saves.map(([wall]) => wall), saves.map(([, cupti]) => cupti));
    record(`${label}: restore after writing 25% of pages`, restores.map(([wall]) => wall), restores.map(([, cupti]) => cupti), { restoresExact, restoresChecked: restores.length });
    // The steady loop per dispatch: save, 5 passes (each writes 25% of the pages), 4 restores.
    const dispatches = [];
    for (let dispatch = 0; dispatch < 5; dispatch += 1) {
      const started = performance.now();
      await session.save();
      for (let pass = 0; pass < 5; pass += 1) {
        queue.enqueueKernel(runtime.kernels.scatterWrite, { buffer: memory.address, bytes, pageBytes: 4096, fraction: 0.25, seed: 7, source: memory.address, sourceBytes: 0 });
        if (pass < 4) await session.restore();
      }
      await queue.synchronize();
      dispatches.push(performance.now() - started);
    }
    record(`${label}: per dispatch (save, 5 passes of 25% writes, 4 restores)`, dispatches, []);
    await session.dispose();
    await queue.dispose();
    memory.free();
  }
}
console.log(`every restore bit-exact: ${exact}`);
await runtime.dispose();
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify({ device: agent.info.name, driver: runtime.versions.driver, unavailableReason: reason, exact, rows }, null, 2));
process.exitCode = reason === null && exact ? 0 : 1;
