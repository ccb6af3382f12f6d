import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

async function help(command: string): Promise<string> {
  const io = recordingIo();
  expect(await runCli([command, '--help'], io)).toBe(0);
  return io.out().replace(/\s+/g, ' ');
}

describe('kreplay --help', () => {
  it('shows byte-size defaults in binary units and durations with their unit', async () => {
    expect(await help('replay')).toContain('device memory the workload holds (default: 64 MiB)');
    expect(await help('calibrate')).toContain('bytes per copy plan (at least 1MiB) (default: 64 MiB)');
    expect(await help('profile')).toContain('scatter: device memory the workload holds (default: 1 GiB)');
    const overhead = await help('overhead');
    expect(overhead).toContain('device memory the workload holds: a size (1GiB) or a share of the device memory (0.7x); a comma list (0.5x,0.7x,0.9x) runs each (default: 1 GiB)');
    expect(overhead).toContain('stop timing a variant after this many seconds (default: 30 s)');
    expect(overhead).toContain('stop each warm-up after this many seconds (default: 2 s)');
    for (const command of ['info', 'demo', 'capture', 'replay', 'profile', 'calibrate', 'overhead', 'bench', 'compare', 'report']) {
      expect(await help(command), command).not.toMatch(/default: \d{5,}/);
    }
  });

  it('gives --out the short form -o, and --json, on every command that has them', async () => {
    for (const command of ['bench', 'overhead', 'compare']) expect(await help(command), command).toContain('-o, --out <file>');
    expect(await help('capture')).toContain('-o, --out <dir>');
    for (const command of ['info', 'demo', 'capture', 'replay', 'profile', 'calibrate', 'overhead', 'bench', 'compare', 'report']) expect(await help(command), command).toContain('--json');
  });

  it("profile: ncu's sections, sets, lists, CSV pages and -o/-f, with examples", async () => {
    const text = await help('profile');
    for (const option of ['--section <identifier>', '--set <name>', '--list-sections', '--list-sets', '--query-metrics', '--chip <name>', '--csv', '--page <page>', '--print-units <units>', '-o, --out <file>', '-f, --force-overwrite', '--kernel-name-base <base>']) {
      expect(text).toContain(option);
    }
    expect(text).toContain('kreplay profile --section SpeedOfLight capture:step');
    expect(text).toContain('With neither --section, --set nor --metrics: the set basic, as ncu.');
  });

  it('capture: the selection options, the program after --, an example and the default selection', async () => {
    const text = await help('capture');
    for (const option of ['--kernel-name <name>', '--kernel-name-base <base>', '--launch-skip <n>', '--launch-count <n>', '--every-launch', '--library <path>']) expect(text).toContain(option);
    expect(text).toContain('Usage: kreplay capture [options] <command...>');
    expect(text).toContain('kreplay capture --kernel-name regex:gemm -o gemm-capture -- python train.py --steps 1');
    expect(text).toContain('Default selection: the first launch of each distinct kernel.');
  });
});
