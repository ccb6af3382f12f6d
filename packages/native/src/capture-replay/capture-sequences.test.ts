import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCaptureFolder } from '../capture/capture-folder.js';
import { pageHash } from '../queue/page-hash.js';
import { writeTestCapture, type TestCaptureLaunch } from '../test/capture-folder-writer.js';
import { captureSequences } from './capture-sequences.js';

const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-sequences-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const pageBytes = 4096;
const bytes = (seed: number) => Uint8Array.from({ length: 2 * pageBytes }, (_, index) => (index * 13 + seed) & 0xff);

function launch(seed: number, extra: Partial<TestCaptureLaunch> = {}): TestCaptureLaunch {
  return {
    function: `k${seed}`,
    module: new Uint8Array([1, 2, 3]),
    grid: [1, 1, 1],
    block: [1, 1, 1],
    parameters: new Uint8Array(0),
    pageBytes,
    memory: [{ base: 0x10000, kind: 'device', before: bytes(seed), after: bytes(seed + 1) }],
    ...extra,
  };
}

describe('a capture of format version 2, as the test kit writes it', () => {
  it('is read with each launch\'s stream, context, sequence, work before and page hashes before', async () => {
    const directory = writeTestCapture(join(root, 'read'), {
      formatVersion: 2,
      launches: [
        launch(1, { stream: '0x7f00' }),
        launch(2, { stream: '0x7f00', workBefore: [{ kind: 'memset', stream: '0x7f00', address: 0x10000, bytes: 16, value: 0, elementBytes: 4 }] }),
        launch(3, { stream: '0x7e00', follows: null, sequenceBreak: 'other-stream' }),
      ],
    });
    const folder = await readCaptureFolder(directory);
    expect(folder.manifest).toMatchObject({ formatVersion: 2, sequences: 2, sequenceBreaks: { 'other-stream': 1 }, cost: { launches: 3 } });
    expect(folder.launches.map(({ formatVersion, stream, context, follows, sequenceBreak }) => ({ formatVersion, stream, context, follows, sequenceBreak }))).toEqual([
      { formatVersion: 2, stream: '0x7f00', context: '0x1', follows: null, sequenceBreak: 'first-launch' },
      { formatVersion: 2, stream: '0x7f00', context: '0x1', follows: 0, sequenceBreak: null },
      { formatVersion: 2, stream: '0x7e00', context: '0x1', follows: null, sequenceBreak: 'other-stream' },
    ]);
    expect(folder.launches[1]!.workBefore).toEqual([{ kind: 'memset', stream: '0x7f00', address: 0x10000, bytes: 16, value: 0, elementBytes: 4 }]);
    expect(folder.launches[1]!.memory[0]!.pageHashesBefore).toEqual([pageHash(bytes(2).subarray(0, pageBytes)), pageHash(bytes(2).subarray(pageBytes))]);
  });

  it('a version 1 record has no page hashes before and no sequence', async () => {
    const folder = await readCaptureFolder(writeTestCapture(join(root, 'version-1'), { launches: [launch(1)] }));
    expect(folder.launches[0]).toMatchObject({ formatVersion: 1, stream: null, follows: null, sequenceBreak: null, workBefore: [] });
    expect(folder.launches[0]!.memory[0]!.pageHashesBefore).toBeNull();
  });
});

describe('captureSequences', () => {
  it('groups launches by follows, each sequence starting with its break', async () => {
    const directory = writeTestCapture(join(root, 'groups'), {
      formatVersion: 2,
      launches: [
        launch(1),
        launch(2, { stream: '0x2', follows: null, sequenceBreak: 'other-stream' }),
        launch(3, { follows: 0 }),
        launch(4, { stream: '0x2', follows: 1 }),
        launch(5, { follows: 2 }),
      ],
    });
    const { sequences, notes } = captureSequences(await readCaptureFolder(directory));
    expect(sequences.map((sequence) => [sequence.start, sequence.launches.map((each) => each.sequence)])).toEqual([
      ['first-launch', [0, 2, 4]],
      ['other-stream', [1, 3]],
    ]);
    expect(notes).toEqual([]);
  });

  it('a launch that follows a damaged or unselected launch starts a sequence of its own, with a note', async () => {
    const directory = writeTestCapture(join(root, 'damaged'), { formatVersion: 2, launches: [launch(1), launch(2), launch(3), launch(4)] });
    unlinkSync(join(directory, 'launches', '00000001.json'));
    const folder = await readCaptureFolder(directory);
    const selected = { ...folder, launches: folder.launches.filter((each) => each.sequence !== 3) };
    expect(captureSequences(folder).sequences.map((sequence) => [sequence.start, sequence.launches.map((each) => each.sequence)])).toEqual([
      ['first-launch', [0]],
      ['follows-missing', [2, 3]],
    ]);
    expect(captureSequences(folder).notes).toEqual([
      'launch 2 follows launch 1, which is not among the launches (damaged, absent or not selected): it starts a sequence of its own, from its own memory',
    ]);
    expect(captureSequences(selected).sequences.map((sequence) => sequence.launches.map((each) => each.sequence))).toEqual([[0], [2]]);
  });

  it('a launch that follows one another launch continues already starts its own', async () => {
    const directory = writeTestCapture(join(root, 'taken'), { formatVersion: 2, launches: [launch(1), launch(2), launch(3, { follows: 0 })] });
    const { sequences, notes } = captureSequences(await readCaptureFolder(directory));
    expect(sequences.map((sequence) => [sequence.start, sequence.launches.map((each) => each.sequence)])).toEqual([
      ['first-launch', [0, 1]],
      ['follows-taken', [2]],
    ]);
    expect(notes).toEqual(['launch 2 follows launch 0, which another launch continues already: it starts a sequence of its own']);
  });

  it('version 1: every launch alone, with a note', async () => {
    const directory = writeTestCapture(join(root, 'v1'), { launches: [launch(1), launch(2)] });
    const { sequences, notes } = captureSequences(await readCaptureFolder(directory));
    expect(sequences.map((sequence) => [sequence.start, sequence.launches.map((each) => each.sequence)])).toEqual([
      ['format-version-1', [0]],
      ['format-version-1', [1]],
    ]);
    expect(notes).toEqual(['the capture is of format version 1, which records no captured sequences: each launch is replayed alone, from its own memory']);
  });
});
