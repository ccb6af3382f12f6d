import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureResultJsonSchema, jsonSchemaProblem } from '@kreplay/bench';
import { captureLibraryPath } from '@kreplay/native';
import type { CaptureReport } from './commands/capture-command.js';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

// `kreplay capture` of a launcher that starts three CUDA processes side by side, none the parent of
// another (as torchrun or mpirun start ranks): each is native's `kreplay-capture-test
// --drive-injection`, which runs the real capture library over native's fake libcupti (a libcupti and
// libcuda stand-in over host memory) and makes six launches of one kernel (and one of a kernel no
// module describes, which is not captured).
const nativeDirectory = fileURLToPath(new URL('../../native/', import.meta.url));
const program = join(nativeDirectory, 'build/tests/kreplay-capture-test');
const fakeCupti = join(nativeDirectory, 'build/tests/fake-cupti/libcupti.so');
const built = existsSync(program) && existsSync(fakeCupti) && existsSync(captureLibraryPath());
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-processes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fakeEnvironment = { KREPLAY_CUPTI_LIBRARY_DIR: join(fakeCupti, '..'), KREPLAY_CUDA_LIBRARY: fakeCupti };
const saved = new Map<string, string | undefined>();
beforeEach(() => {
  for (const [name, value] of Object.entries(fakeEnvironment)) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
});
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** `sh -c` starting three ranks at once; each prints what it drove (its pid among it) to `<prefix>.<rank>`. */
function launcher(prefix: string): string[] {
  const script = 'for rank in 0 1 2; do "$0" --drive-injection "$1" "$2" > "$3.$rank" & done; wait';
  return ['sh', '-c', script, program, captureLibraryPath(), fakeCupti, prefix];
}
const pidsOf = (prefix: string) => [0, 1, 2].map((rank) => (JSON.parse(readFileSync(`${prefix}.${rank}`, 'utf8')) as { pid: number }).pid).sort((a, b) => a - b);

describe.skipIf(!built)('kreplay capture of several processes at once', () => {
  it('writes a capture per process (processes/<pid>) and summarizes each, none mixed', async () => {
    const out = join(root, 'ranks');
    const io = recordingIo();
    expect(await runCli(['capture', '--every-launch', '-o', out, '--', ...launcher(join(root, 'ranks-driven'))], io), io.err()).toBe(0);
    const pids = pidsOf(join(root, 'ranks-driven'));
    const text = io.out();
    expect(text).toContain(`captured 18 launches in 3 processes into ${out}, each its own capture (pass one to kreplay replay --capture or profile capture:)\n`);
    for (const pid of pids) {
      expect(text).toContain(`process ${pid}: captured 6 launches of 1 kernel on Fake CUPTI device (sm_90) into ${join(out, 'processes', String(pid))}\n`);
    }
    // Each process's summary says its own captured sequences and cost.
    const blocks = text.split(/^process /m).slice(1);
    expect(blocks).toHaveLength(3);
    for (const block of blocks) {
      expect(block).toMatch(/\n {2}[1-6] captured sequences?(; started anew: [^\n]+)?\n/);
      expect(block).toMatch(/\n {2}capture cost: [^\n]+ stored in \d+ new blobs?\n/);
    }
  });

  it('--json lists each process with its counts', async () => {
    const out = join(root, 'ranks-json');
    const io = recordingIo();
    expect(await runCli(['capture', '--every-launch', '--json', '-o', out, '--', ...launcher(join(root, 'json-driven'))], io), io.err()).toBe(0);
    const report = JSON.parse(io.out()) as CaptureReport;
    expect(jsonSchemaProblem(captureResultJsonSchema, report)).toBeNull();
    expect(report.capture).toBeNull();
    expect(report.processes.map((summary) => summary.pid)).toEqual(pidsOf(join(root, 'json-driven')));
    for (const summary of report.processes) {
      expect(summary).toMatchObject({ directory: join(out, 'processes', String(summary.pid)), launches: 6, complete: true, notCaptured: { 'graph-launch': 1, 'no-parameter-metadata': 1 } });
      expect(summary.kernels.map((kernel) => [kernel.function, kernel.launches])).toEqual([['scale', 6]]);
      expect(summary).toMatchObject({ formatVersion: 2, cost: { launches: 6 } });
      expect(summary.sequences).toBeGreaterThanOrEqual(1);
      expect(Object.values(summary.sequenceBreaks).reduce((sum, count) => sum + count, 0)).toBe(summary.sequences! - 1);
    }
  });
});
