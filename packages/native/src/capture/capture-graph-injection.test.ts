import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCaptureFolder } from './capture-folder.js';
import type { CaptureFolder, CaptureLaunch } from './capture-folder-types.js';
import { captureLibraryPath } from './capture-library-path.js';
import { pageHash } from '../queue/page-hash.js';

// Kernel nodes of CUDA graphs captured end to end without a GPU: kreplay-capture-test
// --drive-graph-injection (src/capture/test/drive-graph-injection.cpp) runs a program over the fake
// libcuda (test/fake-cuda, which runs graphs and stream capture) with libkreplay-capture.so injected
// and the callbacks raised through build/tests/fake-cupti/libcupti.so: a graph built node by node
// launched three times with a kernel node's count changed in between, a graph captured from a stream
// launched three times, then an executable graph updated from another graph and changed through
// either graph's node, one changed by the memset, enable and generic node setters, and a graph of
// memcpy and graph memory nodes (drive-graph-exec-changes.hpp). Every kernel node is captured as a
// launch, in order, but those of the graph with memory nodes: CUDA (and the fake) refuses to clone
// it, so its launches are counted as not captured. The program's memory at the end is what it
// computed without capture.
const build = (path: string) => fileURLToPath(new URL(`../../build/${path}`, import.meta.url));
const program = build('tests/kreplay-capture-test');
const fakeCupti = build('tests/fake-cupti/libcupti.so');
const fakeCuda = build('fake-cuda/libcuda.so.1');
if (!existsSync(fakeCuda)) spawnSync(fileURLToPath(new URL('../../scripts/build-fake-cuda.sh', import.meta.url)), { stdio: 'ignore', timeout: 300_000 });
const built = existsSync(program) && existsSync(fakeCupti) && existsSync(fakeCuda) && existsSync(build('Release/libkreplay-capture.so'));

interface Driven {
  readonly initialized: number;
  readonly ok: boolean;
  readonly a: number;
  readonly b: number;
  readonly bytes: number;
  readonly graph: string;
  readonly memsetNode: string;
  readonly scaleA: string;
  readonly scaleB: string;
  readonly captured: string;
  readonly stream: string;
  readonly counts: readonly number[];
  readonly update: { readonly graph: string; readonly node: string; readonly updateGraph: string; readonly updateNode: string; readonly counts: readonly number[] };
  readonly setters: { readonly graph: string; readonly memsetNode: string; readonly scaleA: string; readonly scaleB: string; readonly value: number; readonly count: number };
  readonly memoryNodes: { readonly graph: string; readonly d: number };
  readonly unchanged: boolean;
}

/** The count parameter of a `scale(float* data, int count)` launch. */
const countOf = (launch: CaptureLaunch) => new DataView(launch.parameterBuffer.buffer, launch.parameterBuffer.byteOffset).getInt32(8, true);

describe.skipIf(!built)('kernel nodes of graph launches, captured through the CUPTI glue over the fake libcuda', () => {
  const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-graphs-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let driven: Driven;
  let capture: CaptureFolder;
  let stderr: string;

  beforeAll(async () => {
    const directory = join(root, 'capture');
    const { KREPLAY_CAPTURE_DIR: _dir, KREPLAY_CAPTURE_KERNEL_NAME: _name, ...rest } = process.env;
    const result = spawnSync(program, ['--drive-graph-injection', captureLibraryPath(), fakeCupti, fakeCuda], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...rest, KREPLAY_CAPTURE_DIR: directory, KREPLAY_CUPTI_LIBRARY_DIR: join(fakeCupti, '..'), KREPLAY_CUDA_LIBRARY: fakeCuda, KREPLAY_CAPTURE_EVERY_LAUNCH: '1' },
    });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    driven = JSON.parse(result.stdout) as Driven;
    stderr = result.stderr;
    capture = await readCaptureFolder(directory);
  }, 180_000);

  it("leaves the program's memory as it would be without capture", () => {
    expect(driven).toMatchObject({ initialized: 1, ok: true, unchanged: true });
  });

  it('captures each kernel node of each graph launch, in topological order, with its graph, node and graph launch', () => {
    expect(capture.damaged).toEqual([]);
    expect(capture.manifest.complete).toBe(true);
    expect(capture.manifest.graphLaunches).toBe(12);  // the memory-node graph's two launches captured nothing
    expect(capture.launches).toHaveLength(20);
    capture.launches.slice(0, 12).forEach((launch, sequence) => {
      const graphLaunch = Math.floor(sequence / 2);
      const first = sequence % 2 === 0;
      expect(launch.function).toBe('scale');
      expect(launch.stream).toBe(driven.stream);
      expect(launch.graph).toMatchObject({ graph: graphLaunch < 3 ? driven.graph : driven.captured, nodeIndex: first ? 1 : 2, graphLaunch });
      expect(launch.follows).toBe(first ? null : sequence - 1);
      expect(launch.sequenceBreak).toBe(first ? 'graph-launch' : null);
    });
    // The graph built node by node: its nodes' own handles.
    expect(capture.launches.slice(0, 6).map((launch) => launch.graph!.node)).toEqual([0, 1, 2].flatMap(() => [driven.scaleA, driven.scaleB]));
    expect(capture.manifest.sequenceBreaks!['graph-launch']).toBe(12);
  });

  it('takes each kernel node as it is at that launch, after cuGraphExecKernelNodeSetParams', () => {
    expect([0, 2, 4].map((sequence) => countOf(capture.launches[sequence]!))).toEqual(driven.counts);
    expect([6, 8, 10].map((sequence) => countOf(capture.launches[sequence]!))).toEqual([16384, 16384, 16384]);
  });

  it("records memset nodes as the work before the kernel node after them, and counts launches made while a stream captures", () => {
    const value3 = new DataView(new Float32Array([3]).buffer).getUint32(0, true);
    expect(capture.launches[0]!.workBefore).toContainEqual({ kind: 'memset', stream: driven.stream, address: driven.b, bytes: driven.bytes, value: value3, elementBytes: 4 });
    // The captured graph's memset node, once: the cuMemsetD8Async it was captured from did not run.
    expect(capture.launches[6]!.workBefore.filter((work) => work.kind === 'memset')).toEqual([{ kind: 'memset', stream: driven.stream, address: driven.b, bytes: driven.bytes, value: 0, elementBytes: 1 }]);
    expect(capture.manifest.notCaptured['stream-capture']).toBe(2);
  });

  it("holds each node's memory before it and after it, chained from node to node", () => {
    // A and B are the first two pages of one mapping.
    const mapping = (launch: CaptureLaunch) => launch.memory.find((range) => range.base === driven.a)!;
    expect(mapping(capture.launches[0]!)).toMatchObject({ kind: 'vmm', bytes: 2 ** 21 });
    for (let sequence = 1; sequence < 12; sequence += 2) {
      // scale(B) starts from the memory scale(A) left (the memset ran before both).
      expect(mapping(capture.launches[sequence]!).pageHashesBefore).toEqual(mapping(capture.launches[sequence - 1]!).pageHashesAfter);
    }
    // The first launch of the node-by-node graph: B is 3.0 everywhere before scale(B), 7.0 after.
    const filled = (value: number) => new Uint8Array(new Float32Array(driven.bytes / 4).fill(value).buffer);
    expect(mapping(capture.launches[1]!).pageHashesBefore![1]).toBe(pageHash(filled(3)));
    expect(mapping(capture.launches[1]!).pageHashesAfter[1]).toBe(pageHash(filled(7)));
  });

  it('after cuGraphExecUpdate, takes changes made through the first graph\'s node or the update\'s, and records the first graph\'s ids', () => {
    const launches = capture.launches.slice(12, 15);
    expect(launches.map(countOf)).toEqual(driven.update.counts);
    expect(driven.update.counts).toEqual([8192, 4096, 2048]);
    launches.forEach((launch, index) => {
      expect(launch.graph).toMatchObject({ graph: driven.update.graph, node: driven.update.node, nodeIndex: 0, graphLaunch: 6 + index });
    });
  });

  it('follows cuGraphExecMemsetNodeSetParams, cuGraphNodeSetEnabled and cuGraphExecNodeSetParams', () => {
    const launches = capture.launches.slice(15, 20);
    // Launch 9: both kernels after the memset of 5.0f; 10: scale(A) disabled; 11: enabled again, half its count.
    expect(launches.map((launch) => [launch.graph!.graphLaunch, launch.graph!.node])).toEqual([
      [9, driven.setters.scaleA],
      [9, driven.setters.scaleB],
      [10, driven.setters.scaleB],
      [11, driven.setters.scaleA],
      [11, driven.setters.scaleB],
    ]);
    expect(launches[0]!.workBefore).toContainEqual({ kind: 'memset', stream: driven.stream, address: driven.b, bytes: driven.bytes, value: driven.setters.value, elementBytes: 4 });
    expect(countOf(launches[3]!)).toBe(driven.setters.count);
    expect(countOf(launches[0]!)).toBe(16384);
    expect(capture.manifest.notCaptured['graph-untracked-change']).toBe(0);
  });

  it("counts each launch of the graph with memory nodes as not captured, since cuGraphClone refuses that graph, and says no callback failed", () => {
    expect(capture.launches.filter((launch) => launch.graph!.graph === driven.memoryNodes.graph)).toEqual([]);
    expect(capture.manifest.notCaptured['graph-not-cloned']).toBe(2);
    expect(stderr).not.toContain('a callback failed');
    expect(stderr).toContain('cuGraphClone refused the graph (CUDA_ERROR_NOT_SUPPORTED)');
  });
});
