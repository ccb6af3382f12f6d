import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listCaptureProcesses } from './capture-processes.js';
import { readCaptureFolder } from './capture-folder.js';
import { writeTestCapture } from './test/capture-folder-writer.js';

// A capture folder that processes of one program captured into (FORMAT.md, "Processes"): each wrote
// processes/<pid>/, a capture folder of its own. Reading the top folder takes its one capture, or
// refuses to choose among several.
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-processes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const oneLaunch = (name: string) => ({
  launches: [{ function: name, module: new Uint8Array([1, 2, 3]), grid: [1, 1, 1] as const, block: [32, 1, 1] as const, parameters: new Uint8Array(8), memory: [] }],
});

describe('capture folders of several processes', () => {
  it('lists the processes by pid, a second capture of a reused pid after the first', async () => {
    const top = join(root, 'listed');
    for (const name of ['1200', '95', '1200-1', 'notes']) mkdirSync(join(top, 'processes', name), { recursive: true });
    expect(await listCaptureProcesses(top)).toEqual([
      { pid: 95, directory: join(top, 'processes', '95') },
      { pid: 1200, directory: join(top, 'processes', '1200') },
      { pid: 1200, directory: join(top, 'processes', '1200-1') },
    ]);
    expect(await listCaptureProcesses(join(root, 'nothing-here'))).toEqual([]);
  });

  it('reads a folder one process captured into as that capture', async () => {
    const top = join(root, 'one');
    writeTestCapture(join(top, 'processes', '4100'), oneLaunch('axpy'));
    const capture = await readCaptureFolder(top);
    expect(capture.directory).toBe(join(top, 'processes', '4100'));
    expect(capture.launches.map((launch) => launch.function)).toEqual(['axpy']);
  });

  it('refuses a folder several processes captured into, naming each capture and how to pass one', async () => {
    const top = join(root, 'several');
    writeTestCapture(join(top, 'processes', '4100'), oneLaunch('axpy'));
    writeTestCapture(join(top, 'processes', '4200'), oneLaunch('gemm'));
    // A process that stopped before it wrote its manifest still counts: it is not left out silently.
    mkdirSync(join(top, 'processes', '4300'));
    await expect(readCaptureFolder(top)).rejects.toMatchObject({
      name: 'CaptureFormatError',
      file: 'processes',
      message: `[native] [capture] ${top} holds the captures of 3 processes: ${join(top, 'processes', '4100')}, ${join(top, 'processes', '4200')}, ${join(top, 'processes', '4300')}, each a capture folder of its own. Pass one of them, e.g. ${join(top, 'processes', '4100')}.`,
    });
    expect((await readCaptureFolder(join(top, 'processes', '4200'))).launches.map((launch) => launch.function)).toEqual(['gemm']);
  });

  it('reads the one process that captured launches when the others finished with none, and refuses when two did', async () => {
    const top = join(root, 'one-with-launches');
    writeTestCapture(join(top, 'processes', '4100'), { launches: [] });
    writeTestCapture(join(top, 'processes', '4200'), oneLaunch('gemm'));
    writeTestCapture(join(top, 'processes', '4300'), { launches: [] });
    expect((await readCaptureFolder(top)).directory).toBe(join(top, 'processes', '4200'));
    writeTestCapture(join(top, 'processes', '4400'), oneLaunch('axpy'));
    await expect(readCaptureFolder(top)).rejects.toMatchObject({ name: 'CaptureFormatError', file: 'processes' });
  });

  it('does not take an empty process as finished while its capture is incomplete', async () => {
    const top = join(root, 'one-unfinished');
    writeTestCapture(join(top, 'processes', '4100'), oneLaunch('axpy'));
    const unfinished = writeTestCapture(join(top, 'processes', '4200'), { launches: [] });
    const manifest = JSON.parse(readFileSync(join(unfinished, 'manifest.json'), 'utf8'));
    writeFileSync(join(unfinished, 'manifest.json'), JSON.stringify({ ...manifest, complete: false }));
    await expect(readCaptureFolder(top)).rejects.toMatchObject({ name: 'CaptureFormatError', file: 'processes' });
  });

  it('reads a folder with its capture at the top (written before sub-captures) as before', async () => {
    const top = writeTestCapture(join(root, 'flat'), oneLaunch('axpy'));
    const capture = await readCaptureFolder(top);
    expect(capture.directory).toBe(top);
    expect(await listCaptureProcesses(top)).toEqual([]);
  });
});
