import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readCaptureFolder } from './capture-folder.js';
import { captureLibraryPath } from './capture-library-path.js';

// Random CUDA graphs captured end to end without a GPU: kreplay-capture-test --drive-random-graphs
// (src/capture/test/drive-random-graphs.cpp) builds, from a seed, DAGs of kernel, memset and copy
// nodes over overlapping buffers (node by node, or captured from up to three streams), and launches
// each a few times with new inputs (and a kernel node shrunk) in between, over the fake libcuda: once
// plainly, once with libkreplay-capture.so injected and every launch captured. The captured program's
// memory after each graph launch must be the plain run's, and each captured kernel node must hold the
// memory before and after it that the program's reference (the nodes run on the host, in the order
// the capture runs them) computes. KREPLAY_RANDOM_GRAPH_SEEDS (e.g. "4-60") runs other seeds.
const build = (path: string) => fileURLToPath(new URL(`../../build/${path}`, import.meta.url));
const program = build('tests/kreplay-capture-test');
const fakeCupti = build('tests/fake-cupti/libcupti.so');
const fakeCuda = build('fake-cuda/libcuda.so.1');
if (!existsSync(fakeCuda)) spawnSync(fileURLToPath(new URL('../../scripts/build-fake-cuda.sh', import.meta.url)), { stdio: 'ignore', timeout: 300_000 });
const seedsVariable = process.env['KREPLAY_RANDOM_GRAPH_SEEDS'];
const [first, last] = (seedsVariable ?? '2-4').split('-').map(Number) as [number, number?];
const seeds = Array.from({ length: (last ?? first) - first + 1 }, (_, index) => first + index);
const built = existsSync(program) && existsSync(fakeCupti) && existsSync(fakeCuda) && existsSync(build('Release/libkreplay-capture.so'));

/** What the driver prints (drive-random-graphs.hpp). */
interface RandomGraphsRun {
  readonly initialized: number;
  readonly ok: boolean;
  readonly arena: number;
  readonly graphs: readonly { readonly graph: string; readonly captured: boolean; readonly streams: number; readonly nodes: readonly string[] }[];
  readonly launches: readonly {
    readonly graph: number;
    readonly launch: number;
    readonly updated: boolean;
    readonly nodesSet: number;
    readonly shrunkNode: number | null;
    readonly digest: readonly string[];
    readonly matchesReference: boolean;
    readonly kernels: readonly { readonly node: number; readonly position: number; readonly before: readonly string[]; readonly after: readonly string[] }[];
  }[];
}

function drive(seed: number, captureDirectory?: string): RandomGraphsRun {
  const { KREPLAY_CAPTURE_DIR: _dir, KREPLAY_CAPTURE_KERNEL_NAME: _name, ...rest } = process.env;
  const injected = captureDirectory !== undefined;
  const result = spawnSync(program, ['--drive-random-graphs', injected ? captureLibraryPath() : '-', injected ? fakeCupti : '-', fakeCuda, String(seed)], {
    encoding: 'utf8',
    timeout: 120_000,
    env: injected ? { ...rest, KREPLAY_CAPTURE_DIR: captureDirectory, KREPLAY_CUPTI_LIBRARY_DIR: join(fakeCupti, '..'), KREPLAY_CUDA_LIBRARY: fakeCuda, KREPLAY_CAPTURE_EVERY_LAUNCH: '1' } : rest,
  });
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as RandomGraphsRun;
}

/**
 * Runs seed `seed` plainly and captured (into `directory`): the same memory after each graph launch,
 * the reference's memory before and after each captured kernel node. Returns the captured run.
 */
async function checkSeed(seed: number, directory: string): Promise<RandomGraphsRun> {
  const plain = drive(seed);
  expect(plain).toMatchObject({ initialized: 0, ok: true });
  expect(plain.graphs.some((graph) => graph.captured) && plain.graphs.some((graph) => !graph.captured)).toBe(true);
  expect(plain.launches.every((launch) => launch.matchesReference)).toBe(true);

  const captured = drive(seed, directory);
  expect(captured).toMatchObject({ initialized: 1, ok: true });
  // The capture changed nothing: the same memory after every graph launch.
  expect(captured.launches.map((launch) => launch.digest)).toEqual(plain.launches.map((launch) => launch.digest));
  expect(captured.launches.every((launch) => launch.matchesReference)).toBe(true);

  const capture = await readCaptureFolder(directory);
  expect(capture.damaged).toEqual([]);
  expect(capture.manifest.complete).toBe(true);
  expect(capture.manifest.graphLaunches).toBe(plain.launches.length);
  // Each kernel node's launch names the graph its executable graph was instantiated from, updated or not.
  const expected = captured.launches.flatMap((launch, graphLaunch) =>
    launch.kernels.map((kernel) => ({ ...kernel, place: { graph: captured.graphs[launch.graph]!.graph, nodeIndex: kernel.position, graphLaunch } })),
  );
  expect(capture.launches).toHaveLength(expected.length);
  capture.launches.forEach((launch, sequence) => {
    const reference = expected[sequence]!;
    expect(launch.function).toBe('scale');
    expect(launch.graph).toMatchObject(reference.place);
    const arena = launch.memory.find((range) => range.base === captured.arena)!;
    expect(launch.pageBytes).toBe(65536);
    const hex = (hashes: readonly bigint[]) => hashes.slice(0, reference.after.length).map((hash) => hash.toString(16).padStart(16, '0'));
    expect(hex(arena.pageHashesBefore!), `launch ${sequence}: the memory before node ${reference.node}`).toEqual(reference.before);
    expect(hex(arena.pageHashesAfter), `launch ${sequence}: the memory after node ${reference.node}`).toEqual(reference.after);
  });
  return captured;
}

describe.skipIf(!built)('random graphs of kernel, memset and copy nodes, captured through the CUPTI glue over the fake libcuda', () => {
  const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-random-graphs-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each(seeds)('seed %i: the program computes what a plain run computes, and each kernel node is captured with the memory around it', async (seed) => {
    await checkSeed(seed, join(root, `seed-${seed}`));
  }, 120_000);

  // Before graph launch 4, graph 1 is updated (cuGraphExecUpdate), a node set (cuGraphExecMemsetNodeSetParams
  // or cuGraphExecMemcpyNodeSetParams) and kernel node 3's count shrunk (cuGraphExecKernelNodeSetParams),
  // each with the node of the graph it was instantiated from: the capture once kept the old count for
  // that kernel node (its copy of the executable graph took the update's graph's nodes as the nodes the
  // program names), and records named the update's graph.
  it('seed 5: nodes set after cuGraphExecUpdate are captured as the program launched them', async () => {
    const run = await checkSeed(5, join(root, 'seed-5-update'));
    expect(run.launches[4]).toMatchObject({ graph: 1, updated: true, nodesSet: 1, shrunkNode: 3 });
  }, 120_000);
});
