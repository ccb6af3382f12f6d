import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { readCaptureFolder } from '@kreplay/native';
import { writeTestCapture, type TestCaptureLaunch } from '@kreplay/native/test';
import { captureRangeCap, defaultCaptureRange, describeSequences, parseCaptureRange, planCaptureRanges } from './capture-ranges.js';
import { selectCapturedLaunches } from './captured-launch-selection.js';

const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-ranges-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function launch(name: string, extra: Partial<TestCaptureLaunch> = {}): TestCaptureLaunch {
  return { function: name, module: new Uint8Array([1]), grid: [1, 1, 1], block: [1, 1, 1], parameters: new Uint8Array(0), memory: [], ...extra };
}

const sequencesOf = (ranges: readonly (readonly { readonly sequence: number }[])[]) => ranges.map((range) => range.map((each) => each.sequence));

describe('planCaptureRanges', () => {
  it('cuts each captured sequence into ranges of K launches, ordered by their first launch', async () => {
    const folder = await readCaptureFolder(
      writeTestCapture(join(root, 'two'), {
        formatVersion: 2,
        launches: [launch('a'), launch('b'), launch('c', { follows: null, sequenceBreak: 'other-stream' }), launch('d', { follows: 1 }), launch('e', { follows: 2 }), launch('f', { follows: 3 })],
      }),
    );
    expect(defaultCaptureRange(folder)).toBe('auto');
    expect(sequencesOf(planCaptureRanges(folder, 'auto').ranges)).toEqual([[0, 1, 3, 5], [2, 4]]);
    expect(planCaptureRanges(folder, 'auto').rangeLength).toBe(captureRangeCap);
    expect(sequencesOf(planCaptureRanges(folder, 3).ranges)).toEqual([[0, 1, 3], [2, 4], [5]]);
    expect(sequencesOf(planCaptureRanges(folder, 1).ranges)).toEqual([[0], [1], [2], [3], [4], [5]]);
  });

  it('a selection that cuts a sequence: the first selected launch of it starts a range, with a note', async () => {
    const folder = await readCaptureFolder(writeTestCapture(join(root, 'cut'), { formatVersion: 2, launches: [launch('a'), launch('b'), launch('a'), launch('b')] }));
    const selected = selectCapturedLaunches(folder, { kernelName: 'b' }, 'profile');
    const plan = planCaptureRanges(selected, 'auto');
    expect(sequencesOf(plan.ranges)).toEqual([[1], [3]]);
    expect(plan.notes).toEqual([
      'launch 1 follows launch 0, which is not among the launches (damaged, absent or not selected): it starts a sequence of its own, from its own memory',
      'launch 3 follows launch 2, which is not among the launches (damaged, absent or not selected): it starts a sequence of its own, from its own memory',
    ]);
    expect(sequencesOf(planCaptureRanges(selectCapturedLaunches(folder, { launchSkip: 1 }, 'profile'), 'auto').ranges)).toEqual([[1, 2, 3]]);
  });

  it('a version 1 capture: each launch alone, by default and with auto', async () => {
    const folder = await readCaptureFolder(writeTestCapture(join(root, 'v1'), { launches: [launch('a'), launch('b')] }));
    expect(defaultCaptureRange(folder)).toBe(1);
    const plan = planCaptureRanges(folder, 'auto');
    expect(sequencesOf(plan.ranges)).toEqual([[0], [1]]);
    expect(plan.notes[0]).toMatch(/format version 1, which records no captured sequences/);
  });
});

describe('--range of a capture', () => {
  it('is auto or a whole number >= 1', () => {
    expect(parseCaptureRange('auto')).toBe('auto');
    expect(parseCaptureRange('12')).toBe(12);
    for (const bad of ['0', '-1', 'all', '1.5']) expect(() => parseCaptureRange(bad), bad).toThrow(InvalidArgumentError);
  });

  it('names launches in runs', () => {
    expect(describeSequences([0, 1, 2, 5, 7, 8])).toBe('0-2, 5, 7-8');
    expect(describeSequences([4])).toBe('4');
  });
});
