import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BenchReport } from '@kreplay/bench';
import { exitCodes } from './exit-codes.js';
import { runCli } from './run-cli.js';
import { interruptingIo, recordingIo } from './test-io.js';

// bench-command.test.ts also sends a real Ctrl-C to a spawned kreplay bench, which exits 130.
describe('kreplay exit codes', () => {
  it('exits 0 when the work was done', async () => {
    const io = recordingIo();
    expect(await runCli(['info', '--driver', 'host', '--json'], io)).toBe(exitCodes.ok);
    expect(exitCodes.ok).toBe(0);
  });

  it('exits 1 when the work failed (a driver that cannot open)', async () => {
    const io = recordingIo();
    expect(await runCli(['info', '--driver', 'hsa'], io)).toBe(exitCodes.failed);
    expect(exitCodes.failed).toBe(1);
    expect(io.err()).toMatch(/^kreplay: \[native\]/);
  });

  it('exits 2 for a usage error, before any work', async () => {
    const io = recordingIo();
    expect(await runCli(['replay', '--driver', 'host', '--footprint', 'lots'], io)).toBe(exitCodes.usage);
    expect(exitCodes.usage).toBe(2);
    expect(io.out()).toBe('');
  });

  it('exits 130 when Ctrl-C interrupts long work, after writing what it measured', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'kreplay-exit-130-')), 'partial.json');
    // Ctrl-C at the first progress line after a run.
    const io = interruptingIo(/^bench quick: [1-9]/);
    expect(await runCli(['bench', '--preset', 'quick', '--driver', 'host', '--out', out], io)).toBe(exitCodes.interrupted);
    expect(exitCodes.interrupted).toBe(130);
    expect(io.err()).toMatch(/\nkreplay: \[cli\] \[bench\] interrupted: wrote the \d+ runs measured so far/);
    expect((JSON.parse(await readFile(out, 'utf8')) as BenchReport).complete).toBe(false);
  }, 120_000);

  it('lists the exit codes at the end of every --help', async () => {
    for (const args of [['--help'], ['bench', '--help'], ['compare', '--help'], ['replay', '--help']]) {
      const io = recordingIo();
      expect(await runCli(args, io), args.join(' ')).toBe(0);
      expect(io.out()).toMatch(/Exit codes:\n {2}0 {4}ok\n {2}1 {4}the work failed, or compare found a regression\n {2}2 {4}usage or input error.*\n {2}130 {2}interrupted \(Ctrl-C\), after writing what was measured so far\n {2}143 {2}terminated \(SIGTERM\), after writing what was measured so far\n$/);
    }
  });
});
