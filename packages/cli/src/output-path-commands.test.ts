import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io.js';
import { runCli } from './run-cli.js';
import { smallBenchReport } from './test-bench-report.js';
import { recordingIo } from './test-io.js';

const tinyOverhead = ['overhead', '--shape', 'A', '--footprint', '4MiB', '--dispatches', '3', '--passes', '2', '--warmup', '0', '--variant', 'dirty-pages'];

/** A recording io that reports as a terminal and calls `onStderr` with everything written to stderr. */
function terminalIo(onStderr: (text: string) => void): CliIo & { readonly out: () => string; readonly err: () => string } {
  const recording = recordingIo();
  return {
    ...recording,
    interactive: true,
    stderr: (text) => {
      recording.stderr(text);
      onStderr(text);
    },
  };
}

describe('output paths are checked before any work', () => {
  it('refuses a directory, a missing directory or a file named twice with exit 2, before opening the driver', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-out-'));
    const earlier = join(directory, 'earlier.json');
    await writeFile(earlier, 'an earlier report');
    const missing = join(directory, 'missing', 'r.json');
    // --driver cuda: this machine has none, so an error about the path shows it came before the driver.
    for (const [args, pattern] of [
      [['bench', '--driver', 'cuda', '--out', directory], /^kreplay: \[cli\] \[bench\] --out .*: is a directory\. Pass a path to a file, e\.g\. .*report\.json\.\n$/],
      [['bench', '--driver', 'cuda', '--out', earlier, '--html', missing], /^kreplay: \[cli\] \[bench\] --html .*missing\/r\.json: the directory .*missing does not exist\./],
      [['bench', '--driver', 'cuda', '--out', earlier, '--html', earlier], /^kreplay: \[cli\] \[bench\] --out and --html both name /],
      [['bench', '--slurm', '--out', directory], /^kreplay: \[cli\] \[bench\] --out .*: is a directory\./],
      [['bench', '--slurm', '--out', missing], /^kreplay: \[cli\] \[bench\] --out .*: the directory .*missing does not exist\./],
      [[...tinyOverhead, '--driver', 'cuda', '--out', directory], /^kreplay: \[cli\] \[overhead\] --out .*: is a directory\./],
      [[...tinyOverhead, '--driver', 'cuda', '--out', missing], /^kreplay: \[cli\] \[overhead\] --out .*: the directory .*missing does not exist\./],
      [['compare', '--by-device', join(directory, 'absent.json'), '--out', directory], /^kreplay: \[cli\] \[compare\] --out .*: is a directory\./],
      [['compare', '--by-device', join(directory, 'absent.json'), '--html', missing], /^kreplay: \[cli\] \[compare\] --html .*: the directory .*missing does not exist\./],
      [['report', join(directory, 'absent.json'), '--html', directory], /^kreplay: \[cli\] \[report\] --html .*: is a directory\./],
    ] as const) {
      const io = recordingIo();
      expect(await runCli(args, io), args.join(' ')).toBe(2);
      expect(io.err()).toMatch(pattern);
      expect(io.err().trim().split('\n')).toHaveLength(1);
      expect(io.out()).toBe('');
    }
    expect(await readFile(earlier, 'utf8')).toBe('an earlier report');
    expect((await readdir(directory)).sort()).toEqual(['earlier.json']);
  });

  it('refuses an output that is an input, or two outputs that are one file through a symbolic link, with exit 2', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-out-'));
    const input = join(directory, 'in.json');
    const input2 = join(directory, 'in2.json');
    const out = join(directory, 'r.json');
    const report = JSON.stringify(smallBenchReport());
    await writeFile(input, report);
    await writeFile(input2, report);
    await writeFile(out, 'an earlier report');
    await symlink(out, join(directory, 'out-link.html'));
    await symlink(input, join(directory, 'in-link.html'));
    await mkdir(join(directory, 'sub'));
    const viaSub = `${directory}/sub/../in2.json`;
    for (const [args, pattern] of [
      [['report', input, '--html', input], /^kreplay: \[cli\] \[report\] --html and <report> both name .*in\.json\. Give the output a file of its own, so that it does not replace the input\.\n$/],
      [['report', input, '--html', join(directory, 'in-link.html')], /^kreplay: \[cli\] \[report\] --html .*in-link\.html and <report> .*in\.json both name .*in\.json\./],
      [['compare', '--by-device', input, input2, '-o', input2], /^kreplay: \[cli\] \[compare\] --out and <reports> both name .*in2\.json\./],
      [['compare', '--by-device', input, input2, '-o', viaSub], /^kreplay: \[cli\] \[compare\] --out .*sub\/\.\.\/in2\.json and <reports> .*in2\.json both name .*in2\.json\./],
      [['compare', '--by-device', input, '--html', join(directory, 'in-link.html')], /^kreplay: \[cli\] \[compare\] --html .*in-link\.html and <reports> .*in\.json both name /],
      [['compare', '--by-device', input, '--out', out, '--html', join(directory, 'out-link.html')], /^kreplay: \[cli\] \[compare\] --out .*r\.json and --html .*out-link\.html both name .*r\.json\. Give each output its own file\./],
      [['bench', '--driver', 'cuda', '--out', out, '--html', join(directory, 'out-link.html')], /^kreplay: \[cli\] \[bench\] --out .*r\.json and --html .*out-link\.html both name .*r\.json\./],
    ] as const) {
      const io = recordingIo();
      expect(await runCli(args, io), args.join(' ')).toBe(2);
      expect(io.err()).toMatch(pattern);
      expect(io.out()).toBe('');
    }
    expect(await readFile(input, 'utf8')).toBe(report);
    expect(await readFile(input2, 'utf8')).toBe(report);
    expect(await readFile(out, 'utf8')).toBe('an earlier report');
    expect((await readdir(directory)).sort()).toEqual(['in-link.html', 'in.json', 'in2.json', 'out-link.html', 'r.json', 'sub']);
  });

  it('overhead prints its results even when writing --out fails after measuring, then exits 1', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-out-'));
    const out = join(directory, 'results', 'overhead.json');
    await mkdir(join(directory, 'results'));
    // The folder goes away while the first variant is measured (its progress bar drawn), after the check passed.
    let removed = false;
    const io = terminalIo((text) => {
      if (removed || !text.startsWith('\r\x1b[Koverhead')) return;
      removed = true;
      void rm(join(directory, 'results'), { recursive: true });
    });
    expect(await runCli([...tinyOverhead, '--driver', 'host', '--out', out], io)).toBe(1);
    expect(io.out()).toMatch(/^shape A on .*\n  bare dispatch/);
    expect(io.out()).toMatch(/dirty-pages +overhead/);
    // The bar is cleared before the one-line error.
    expect(io.err()).toMatch(/\r\x1b\[Kkreplay: \[bench\] \[report\] .*overhead\.json: cannot be written \(ENOENT\)\. Choose a path in a writable directory\.\n$/);
  });

  it('bench prints its table even when writing --out fails after an interruption, then exits 1', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-out-'));
    await mkdir(join(directory, 'results'));
    const out = join(directory, 'results', 'r.json');
    // Once the bar shows a run measured, the folder goes away and Ctrl-C stops the bench early (to keep the test short).
    let interrupted = false;
    const io = terminalIo((text) => {
      if (interrupted || !/^\r\x1b\[Kbench quick \[[#.]+\] [1-9]/.test(text)) return;
      interrupted = true;
      void rm(join(directory, 'results'), { recursive: true }).then(() => process.emit('SIGINT'));
    });
    expect(await runCli(['bench', '--preset', 'quick', '--driver', 'host', '--out', out], io)).toBe(1);
    expect(interrupted).toBe(true);
    expect(io.out()).toMatch(/^kreplay bench, preset quick, driver host/);
    expect(io.err()).toMatch(/kreplay: \[bench\] \[report\] .*r\.json: cannot be written \(ENOENT\)\. Choose a path in a writable directory\.\n$/);
  }, 120_000);
});
