import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureBlobId, captureBlobPath } from './capture-blob.js';
import { captureFolderJsonSchema, captureFolderSchemaId } from './capture-folder-json-schema.js';
import { readCaptureFolder } from './capture-folder.js';
import { readModuleImage } from './capture-module-image.js';
import { CaptureFormatError } from '../errors/capture-format-error.js';
import { pageHash } from '../queue/page-hash.js';

// The C++ capture writer (src/capture/capture-writer.cpp) writes a capture through the test program
// of capture.cmake (write-sample-capture.cpp says what it holds: five launches, one staged and never
// committed, one with a truncated blob, one with a deleted blob); this reader must find the complete
// launches and name the damaged ones.
const program = fileURLToPath(new URL('../../build/tests/kreplay-capture-test', import.meta.url));
const built = existsSync(program);

const fill = (value: number, bytes = 4096) => new Uint8Array(bytes).fill(value);

interface Written {
  readonly module: string;
  readonly truncatedBlob: string;
  readonly missingBlob: string;
  readonly staged: string;
}

describe.skipIf(!built)('readCaptureFolder on what the C++ writer wrote', () => {
  let root = '';
  let capture = '';
  let written: Written;
  /** A copy of the capture to damage, with `edit` applied to the parsed JSON of `file`. */
  const damagedCopy = (name: string, file: string, edit: (value: Record<string, any>) => void): string => {
    const copy = join(root, name);
    cpSync(capture, copy, { recursive: true });
    const value = JSON.parse(readFileSync(join(copy, file), 'utf8')) as Record<string, any>;
    edit(value);
    writeFileSync(join(copy, file), JSON.stringify(value));
    return copy;
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'kreplay-capture-folder-'));
    capture = join(root, 'capture');
    const result = spawnSync(program, ['--write-capture', capture], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    written = JSON.parse(result.stdout) as Written;
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the manifest: device, command, not finished, and what was not captured by reason', async () => {
    const { manifest } = await readCaptureFolder(capture);
    expect(manifest).toMatchObject({ format: 'kreplay-capture', formatVersion: 2, driver: 'cuda', complete: false, command: ['python', 'train.py'] });
    expect(manifest.device.architecture).toBe('sm_90');
    expect(manifest.notCaptured).toEqual({
      'graph-launch': 2,
      'cooperative-launch': 1,
      'multi-device-launch': 0,
      'managed-memory': 0,
      'texture-or-surface': 0,
      'stream-capture': 0,
      'no-parameter-metadata': 0,
      'graph-child-graph': 0,
      'graph-conditional-node': 0,
      'graph-host-node': 0,
      'graph-event-node': 0,
      'device-graph-launch': 0,
      collective: 0,
      'graph-untracked-change': 0,
      'graph-not-cloned': 0,
    });
  });

  it('the manifest of format version 2: captured sequences, their breaks by reason, and the cost', async () => {
    const { manifest } = await readCaptureFolder(capture);
    // Launches 0, 1 (following 0), 2 (another stream) and 4 (after an uncaptured launch) were committed.
    expect(manifest.sequences).toBe(3);
    expect(manifest.sequenceBreaks).toEqual({
      'other-stream': 1,
      'uncaptured-launch': 1,
      'host-function': 0,
      'cross-stream-wait': 0,
      'unbounded-write': 0,
      'other-stream-work': 0,
      'host-write': 0,
      'unrecorded-write': 0,
      'capture-stopped': 0,
      'graph-launch': 0,
    });
    expect(manifest.graphLaunches).toBe(0);
    expect(manifest.cost).toMatchObject({ launches: 4, deviceBytesHashed: 0, bytesCopiedToHost: 0, blobsStored: 7 });
    expect(manifest.cost!.bytesStored).toBe(984 + 4 + 4 * 4096 + 4096);
    expect(manifest.cost!.wallSeconds).toBeGreaterThanOrEqual(0);
  });

  it('a launch of format version 2: its stream, captured sequence, work before and page hashes before', async () => {
    const [first, second] = (await readCaptureFolder(capture)).launches;
    expect(first).toMatchObject({ formatVersion: 2, stream: '0x0', context: '0x0', follows: null, sequenceBreak: 'first-launch', workBefore: [] });
    expect(second).toMatchObject({ formatVersion: 2, follows: 0, sequenceBreak: null });
    expect(second!.workBefore).toEqual([
      { kind: 'memset', stream: '0x0', address: 0x7f1200001000, bytes: 4096, value: 13, elementBytes: 1 },
      { kind: 'allocation', address: 0x7f1200300000, bytes: 8192, memoryKind: 'pool' },
    ]);
    expect(first!.memory[0]!.pageHashesBefore).toEqual([fill(10), fill(11), fill(10)].map(pageHash));
    expect(second!.memory[0]!.pageHashesBefore).toEqual([fill(11), fill(13)].map(pageHash));
  });

  it('a kernel node of a graph launch: its graph, node, place in the order run and graph launch; an ordinary launch has none', async () => {
    const graphNode = { graph: '0x6000', node: '0x7f0000100', nodeIndex: 3, graphLaunch: 2 };
    const copy = damagedCopy('graph-node', 'launches/00000001.json', (value) => {
      value.graph = graphNode;
    });
    const manifestPath = join(copy, 'manifest.json');
    writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, 'utf8')), graphLaunches: 1 }));
    const folder = await readCaptureFolder(copy);
    expect(folder.damaged).toEqual((await readCaptureFolder(capture)).damaged.map((damaged) => ({ ...damaged, reason: damaged.reason.replaceAll(capture, copy) })));
    expect(folder.manifest.graphLaunches).toBe(1);
    expect(folder.launches[1]!.graph).toEqual(graphNode);
    expect(folder.launches[0]!.graph).toBeNull();
    expect((await readCaptureFolder(capture)).launches.map((launch) => launch.graph)).toEqual([null, null]);
  });

  it('returns the complete launches, names the damaged ones and the launch left staged', async () => {
    const folder = await readCaptureFolder(capture);
    expect(folder.launches.map((launch) => launch.sequence)).toEqual([0, 1]);
    expect(folder.damaged.map(({ file, sequence, field }) => ({ file, sequence, field }))).toEqual([
      { file: 'launches/00000002.json', sequence: 2, field: 'memory[0].pagesBefore[0]' },
      { file: 'launches/00000004.json', sequence: 4, field: 'memory[0].pagesBefore[0]' },
    ]);
    expect(folder.damaged[0]!.reason).toContain(`${captureBlobPath(written.truncatedBlob)} is 100 bytes, not 4096 (truncated)`);
    expect(folder.damaged[1]!.reason).toContain(`${captureBlobPath(written.missingBlob)} is missing`);
    expect(folder.incomplete).toEqual([`launches/${basename(written.staged)}`]);
  });

  it('a launch holds its shape, raw parameter buffer and layout, and its memory before and after', async () => {
    const [first, second] = (await readCaptureFolder(capture)).launches;
    expect(first!.function).toBe('scale');
    expect(first!.shape).toEqual({ grid: [4, 1, 1], block: [256, 1, 1], dynamicSharedBytes: 0, clusterDims: null, attributes: [] });
    expect(second!.shape).toEqual({ grid: [4, 1, 1], block: [256, 1, 1], dynamicSharedBytes: 1024, clusterDims: [2, 1, 1], attributes: [{ name: 'CU_LAUNCH_ATTRIBUTE_PRIORITY', values: [1] }] });
    const view = new DataView(first!.parameterBuffer.buffer, first!.parameterBuffer.byteOffset, first!.parameterBuffer.byteLength);
    expect(first!.parameterBuffer.length).toBe(16);
    expect(view.getBigUint64(0, true)).toBe(0x7f1200000000n);
    expect(view.getUint32(8, true)).toBe(3072);
    expect(first!.parameters).toEqual([{ index: 0, offset: 0, size: 8 }, { index: 1, offset: 8, size: 4 }]);
    const [device, global] = first!.memory;
    expect(device).toMatchObject({ base: 0x7f1200000000, bytes: 3 * 4096, kind: 'device', label: '' });
    expect(device!.pagesBefore).toEqual([fill(10), fill(11), fill(10)].map(captureBlobId));
    expect(device!.pageHashesAfter).toEqual([fill(11), fill(12), fill(11)].map(pageHash));
    expect(global).toMatchObject({ base: 0x7f1300000004, bytes: 4, kind: 'module-global', label: 'counter', pagesBefore: [captureBlobId(fill(20, 4))] });
    expect(second!.memory[0]!.kind).toBe('pool');
  });

  it('blobs are shared: one file per distinct content, for every launch that names it', async () => {
    const [first, second] = (await readCaptureFolder(capture)).launches;
    expect(second!.memory[0]!.pagesBefore[0]).toBe(first!.memory[0]!.pagesBefore[1]);
    expect(second!.module).toBe(first!.module);
    const files = readdirSync(join(capture, 'blobs'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    // module, fill 10, 11, 13, the 4-byte global, the truncated fill 14 (fill 15 was deleted).
    expect(files).toHaveLength(6);
  });

  it('the module blob is the image the function came from, and its metadata gives the parameter layout', async () => {
    const [first] = (await readCaptureFolder(capture)).launches;
    expect(first!.module).toBe(written.module);
    const image = readModuleImage(readFileSync(join(capture, captureBlobPath(first!.module))));
    const kernel = image.entries[0]!.cubin!.kernels.find((candidate) => candidate.name === first!.function);
    expect(kernel!.parameters).toEqual(first!.parameters);
    expect(kernel!.parameterBufferBytes).toBe(first!.parameterBuffer.length);
  });

  it('schema violations of a launch record are named by field', async () => {
    const cases: [string, (value: Record<string, any>) => void, string, RegExp][] = [
      ['grid', (value) => { value.shape.grid[0] = 0; }, 'shape.grid[0]', /shape\.grid\[0\] is 0, below 1/],
      ['function', (value) => { delete value.function; }, 'function', /function is missing/],
      ['kind', (value) => { value.memory[0].kind = 'managed'; }, 'memory[0].kind', /memory\[0\]\.kind is "managed", not one of "device"/],
      ['hash', (value) => { value.memory[0].pageHashesAfter[1] = 'xyz'; }, 'memory[0].pageHashesAfter[1]', /does not match/],
      ['slot', (value) => { value.parameters.slots[1].size = 16; }, 'parameters.slots[1]', /ends at byte 24, past the 16-byte buffer/],
      ['pages', (value) => { value.memory[0].pagesBefore.pop(); }, 'memory[0].pagesBefore', /lists 2 pages, not 3/],
      ['hashes before', (value) => { value.memory[0].pageHashesBefore.pop(); }, 'memory[0].pageHashesBefore', /lists 2 hashes, not 3/],
      ['follows itself', (value) => { value.follows = 0; value.sequenceBreak = null; }, 'follows', /names launch 0, which is not before launch 0/],
      ['neither', (value) => { value.sequenceBreak = null; }, 'sequenceBreak', /is null, but the launch follows no launch/],
      ['stream', (value) => { value.stream = 'legacy'; }, 'stream', /stream is "legacy", which does not match/],
      ['work kind', (value) => { value.workBefore = [{ kind: 'prefetch', address: '0x10' }]; }, 'workBefore[0].kind', /is "prefetch", not one of "memset"/],
      ['work field', (value) => { value.workBefore = [{ kind: 'memset', stream: '0x0', address: '0x10', bytes: 4, value: 1, elementBytes: 3 }]; }, 'workBefore[0].elementBytes', /is 3, not one of 1, 2, 4/],
      ['work missing', (value) => { value.workBefore = [{ kind: 'copy', stream: '0x0', destination: '0x10', bytes: 4 }]; }, 'workBefore[0].source', /is missing/],
      ['version', (value) => { value.formatVersion = 1; }, 'formatVersion', /formatVersion is 1, but the manifest's is 2/],
      ['graph node index', (value) => { value.graph = { graph: '0x6000', node: '0x100', nodeIndex: -1, graphLaunch: 0 }; }, 'graph.nodeIndex', /graph\.nodeIndex is negative \(-1\)/],
      ['graph node', (value) => { value.graph = { graph: '0x6000', nodeIndex: 0, graphLaunch: 0 }; }, 'graph.node', /graph\.node is missing/],
    ];
    for (const [name, edit, field, reason] of cases) {
      const folder = await readCaptureFolder(damagedCopy(`schema-${name}`, 'launches/00000000.json', edit));
      expect(folder.launches.map((launch) => launch.sequence), name).toEqual([1]);
      expect(folder.damaged[0], name).toMatchObject({ file: 'launches/00000000.json', field });
      expect(folder.damaged[0]!.reason, name).toMatch(reason);
    }
    const both = await readCaptureFolder(damagedCopy('schema-both', 'launches/00000001.json', (value) => { value.sequenceBreak = 'other-stream'; }));
    expect(both.damaged[0]).toMatchObject({ file: 'launches/00000001.json', field: 'sequenceBreak' });
    expect(both.damaged[0]!.reason).toMatch(/sequenceBreak is "other-stream", but the launch follows launch 0/);
  });

  it('a record cut short, renamed, or naming a blob of other content is damaged, and says so', async () => {
    const cut = join(root, 'cut');
    cpSync(capture, cut, { recursive: true });
    const record = join(cut, 'launches/00000001.json');
    writeFileSync(record, readFileSync(record, 'utf8').slice(0, 100));
    const cutFolder = await readCaptureFolder(cut);
    expect(cutFolder.launches.map((launch) => launch.sequence)).toEqual([0]);
    expect(cutFolder.damaged[0]).toMatchObject({ file: 'launches/00000001.json', sequence: 1, field: null });
    expect(cutFolder.damaged[0]!.reason).toMatch(/is not valid JSON .*cut short/);

    const renamed = join(root, 'renamed');
    cpSync(capture, renamed, { recursive: true });
    renameSync(join(renamed, 'launches/00000001.json'), join(renamed, 'launches/00000009.json'));
    expect((await readCaptureFolder(renamed)).damaged.at(-1)).toMatchObject({ file: 'launches/00000009.json', sequence: 9, field: 'sequence' });

    const altered = join(root, 'altered');
    cpSync(capture, altered, { recursive: true });
    writeFileSync(join(altered, captureBlobPath(captureBlobId(fill(13)))), fill(99));
    const folder = await readCaptureFolder(altered);
    expect(folder.launches.map((launch) => launch.sequence)).toEqual([0]);
    expect(folder.damaged[0]).toMatchObject({ file: 'launches/00000001.json', field: 'memory[0].pagesBefore[1]' });
    expect(folder.damaged[0]!.reason).toContain(`holds other content (its SHA-256 names it ${captureBlobId(fill(99))})`);
    // Without verification only presence and length are checked.
    expect((await readCaptureFolder(altered, { verifyBlobs: false })).launches.map((launch) => launch.sequence)).toEqual([0, 1]);
  });

  it('a manifest against the schema, of a newer version, or absent is a CaptureFormatError naming it', async () => {
    const negative = damagedCopy('manifest-negative', 'manifest.json', (value) => { value.notCaptured['graph-launch'] = -1; });
    await expect(readCaptureFolder(negative)).rejects.toMatchObject({ name: 'CaptureFormatError', file: 'manifest.json', field: 'notCaptured.graph-launch' });
    await expect(readCaptureFolder(negative)).rejects.toThrow(/notCaptured\.graph-launch is negative \(-1\)/);
    const newer = damagedCopy('manifest-newer', 'manifest.json', (value) => { value.formatVersion = 3; });
    await expect(readCaptureFolder(newer)).rejects.toThrow(/format version 3, newer than this reader's \(2\)\. Upgrade @kreplay\/native\./);
    const noCost = damagedCopy('manifest-no-cost', 'manifest.json', (value) => { delete value.cost; });
    await expect(readCaptureFolder(noCost)).rejects.toMatchObject({ field: 'cost' });
    await expect(readCaptureFolder(join(root, 'nowhere'))).rejects.toBeInstanceOf(CaptureFormatError);
  });
});

describe('readCaptureFolder on a folder of format version 1 (kept as the writer of version 1 wrote it)', () => {
  const fixture = fileURLToPath(new URL('./__fixtures__/capture-format-1', import.meta.url));
  const written = JSON.parse(readFileSync(join(fixture, 'WRITTEN.json'), 'utf8')) as Written;

  it('reads its manifest and complete launches, names the damaged ones, lists the one left staged', async () => {
    const folder = await readCaptureFolder(fixture);
    expect(folder.manifest).toMatchObject({ formatVersion: 1, complete: false, notCaptured: { 'graph-launch': 2, 'cooperative-launch': 1 } });
    expect(folder.manifest.sequences).toBeUndefined();
    expect(folder.launches.map((launch) => launch.sequence)).toEqual([0, 1]);
    expect(folder.damaged.map(({ sequence, field }) => ({ sequence, field }))).toEqual([
      { sequence: 2, field: 'memory[0].pagesBefore[0]' },
      { sequence: 4, field: 'memory[0].pagesBefore[0]' },
    ]);
    expect(folder.incomplete).toEqual([written.staged]);
  });

  it('a version 1 launch has the version 2 fields at their defaults', async () => {
    const [first] = (await readCaptureFolder(fixture)).launches;
    expect(first).toMatchObject({ formatVersion: 1, stream: null, context: null, follows: null, sequenceBreak: null, workBefore: [], graph: null, module: written.module });
    expect(first!.memory[0]!.pagesBefore).toEqual([fill(10), fill(11), fill(10)].map(captureBlobId));
    expect(first!.memory[0]!.pageHashesAfter).toEqual([fill(11), fill(12), fill(11)].map(pageHash));
    expect(first!.memory[0]!.pageHashesBefore).toBeNull();
  });
});

describe('the capture folder schema', () => {
  it('ships as schema/capture-folder.schema.json, identical to the one the reader validates with', () => {
    const file = JSON.parse(readFileSync(new URL('../../schema/capture-folder.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(file).toEqual(captureFolderJsonSchema);
    expect(captureFolderJsonSchema.$id).toBe(captureFolderSchemaId);
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[]; exports: Record<string, string> };
    expect(manifest.files).toContain('schema');
    expect(manifest.exports['./schema/capture-folder.schema.json']).toBe('./schema/capture-folder.schema.json');
  });

  it('blob ids are SHA-256 prefixes and lengths, as the C++ writer names them', () => {
    expect(captureBlobId(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223-3');
    expect(captureBlobPath('ba7816bf8f01cfea414140de5dae2223-3')).toBe('blobs/ba/ba7816bf8f01cfea414140de5dae2223-3');
  });
});
