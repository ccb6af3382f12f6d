/**
 * A capture whose kernel writes mapped pinned host memory, replayed through the engine on the cuda
 * driver with every shipped strategy and full verification. The kernel is native's block-sums
 * fixture (test/capture-fixtures/block-sums.cu): each block reduces a[i] + b[i] of two device arrays
 * in shared memory and thread 0 stores the block's sum in `sums`, pinned host memory that the
 * capture puts inside the 32 MiB window of the device memory (where CUDA puts a program's
 * cudaMallocHost memory), so the replay maps it there as CUDA host memory. Every launch must verify
 * (each pass starts from the sums the launch started from, and leaves the same) and leave the
 * memory the program left. Skips without a CUDA device; `test:fake-cuda` runs it on native's fake libcuda.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPostLaunchHashes, openCapture, openRuntime, type Runtime } from '@kreplay/native';
import { captureFixtureBlockSums, captureFixtureBlockSumsParameters, captureFixtureBlockThreads, unavailableDriverReason, writeTestCapture } from '@kreplay/native/test';
import { createStaging, dirtyPagesStrategy, fullStrategy, writeSetStrategy } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { createReplayEngine, fixedPasses } from '../../src/index.js';

const unavailable = await unavailableDriverReason('cuda');
// In the repository, or beside the GPU test bundle (native's scripts/bundle-gpu-tests.mjs copies it there).
const modulePath = [
  fileURLToPath(new URL('../../../native/test/gpu/kernels/capture-fixture-block-sums.ptx', import.meta.url)),
  fileURLToPath(new URL('./kernels/capture-fixture-block-sums.ptx', import.meta.url)),
].find((path) => existsSync(path));
const root = mkdtempSync(join(tmpdir(), 'kreplay-replay-host-memory-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A 1 GiB range unmapped in this process, from 0x3f0000000000 on (far from where Linux maps). */
function freeRange(): number {
  const mappings = readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.split(/[- ]/, 2).map((field) => Number.parseInt(field, 16)) as [number, number]);
  for (let base = 0x3f0000000000; base < 0x3f0000000000 + 16 * 2 ** 30; base += 2 ** 30) {
    if (mappings.every(([start, end]) => end <= base || start >= base + 2 ** 30)) return base;
  }
  throw new Error('no 1 GiB range from 0x3f0000000000 is free in this process');
}

const count = 16 * captureFixtureBlockThreads;
const bytesOf = (values: Float32Array) => new Uint8Array(values.buffer.slice(0));

/**
 * Three launches of the fixture: a at `base` + 6 MiB and b 2 MiB above it (device memory), the sums
 * 4 MiB above a (pinned host memory, in the same 32 MiB window). The program wrote new values into a
 * before each launch, so each launch starts from the sums the one before stored. Returns the sums
 * the last launch left.
 */
function writeBlockSumsCapture(directory: string, base: number, module: Uint8Array, architecture: string): { readonly sums: number; readonly last: Float32Array } {
  const a = base + 6 * 2 ** 20;
  const b = a + 2 * 2 ** 20;
  const sums = a + 4 * 2 ** 20;
  const bValues = Float32Array.from({ length: count }, (_, index) => ((index * 7) % 23) * 0.25);
  let sumValues: Float32Array = new Float32Array(count / captureFixtureBlockThreads);
  const launches = [0, 1, 2].map((launch) => {
    const aValues = Float32Array.from({ length: count }, (_, index) => ((index + launch * 5) % 17) - 8);
    const before = sumValues;
    sumValues = captureFixtureBlockSums(aValues, bValues);
    return {
      function: 'kreplay_capture_fixture_block_sums',
      module,
      grid: [count / captureFixtureBlockThreads, 1, 1] as const,
      block: [captureFixtureBlockThreads, 1, 1] as const,
      parameters: captureFixtureBlockSumsParameters(a, b, sums, count),
      memory: [
        { base: a, kind: 'device' as const, before: bytesOf(aValues) },
        { base: b, kind: 'device' as const, before: bytesOf(bValues) },
        { base: sums, kind: 'host-pinned' as const, before: bytesOf(before), after: bytesOf(sumValues) },
      ],
    };
  });
  writeTestCapture(directory, { device: { name: 'The captured GPU', architecture }, command: ['block-sums-program'], launches });
  return { sums, last: sumValues };
}

describe.skipIf(unavailable !== null || modulePath === undefined)(
  `a capture whose kernel writes mapped pinned host memory, replayed on the cuda driver${unavailable === null ? '' : ` (${unavailable})`}`,
  () => {
    let runtime: Runtime;
    beforeAll(async () => {
      runtime = await openRuntime({ driver: 'cuda' });
    });
    afterAll(() => runtime?.dispose());

    for (const [name, make] of [['full', fullStrategy], ['write-set', writeSetStrategy], ['dirty-pages', dirtyPagesStrategy]] as const) {
      it(`${name}: every launch verifies and leaves the program's memory`, async () => {
        const architecture = runtime.agents[0]!.info.architecture;
        const directory = join(root, name);
        const { sums, last } = writeBlockSumsCapture(directory, freeRange(), readFileSync(modulePath!), architecture);
        await using replay = await openCapture(directory, { runtime, placement: 'exact' });
        using tracker = createTracker(runtime);
        await replay.map();
        expect(replay.regions.map((region) => region.placement)).toEqual(['device', 'device', 'host']);
        expect(replay.agent.findAllocation(sums)).toMatchObject({ address: sums, kind: 'host-pinned' });
        using staging = createStaging(runtime, tracker);
        using strategy = make();
        await using engine = createReplayEngine({ runtime, tracker, staging, strategy, passes: fixedPasses(3), verify: 'full' });
        await using queue = replay.agent.createQueue();
        for (const launch of replay.launches) {
          const dispatch = await replay.prepare(launch);
          const result = await engine.dispatch({ queue, kernel: dispatch.kernel, args: dispatch.args, launch: dispatch.launch });
          expect(result.failure, `launch ${launch.sequence}: ${JSON.stringify(result.failure?.error)}`).toBeUndefined();
          expect(result, `launch ${launch.sequence}`).toMatchObject({ replayed: true, passes: 3 });
          expect(result.verification, `launch ${launch.sequence}`).toMatchObject({
            status: 'verified',
            restoresExact: true,
            passOutputsEqual: true,
            nondeterministic: false,
            mismatchedRanges: [],
          });
          expect(await checkPostLaunchHashes(queue, dispatch.expectedPageHashes), `launch ${launch.sequence}`).toMatchObject({ reproduced: true, pagesMismatched: 0 });
        }
        expect(new Float32Array((await replay.agent.read(sums, last.byteLength)).slice().buffer)).toEqual(last);
      });
    }
  },
);
