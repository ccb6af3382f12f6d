import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BenchReport } from '@kreplay/bench';
import { smallBenchReport } from './test-bench-report.js';
import { benchMeasuredARun, spawnCli } from './test-spawn-cli.js';

/** What a crash on a closed pipe printed: the error's name, or a stack frame. */
const crashed = /EPIPE|Unhandled|\n\s+at /;

// A reader that goes away (`kreplay ... | head`) closes the pipe that is the command's stdout.
describe('a closed stdout ends a command quietly, with nothing lost', () => {
  let directory: string;
  let base: string;
  let slower: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'kreplay-closed-pipe-'));
    base = join(directory, 'base.json');
    slower = join(directory, 'slower.json');
    await writeFile(base, JSON.stringify(smallBenchReport(2)));
    await writeFile(slower, JSON.stringify(smallBenchReport(4)));
  });

  it('demo stops without a word when its reader leaves after the first line (| head -1)', async () => {
    const { exit, stdout, stderr } = await spawnCli(['demo', '--driver', 'host'], { closeStdout: 'after-first-output' });
    expect(stdout).toMatch(/^driver host: /);
    expect(stderr).toBe('');
    expect(exit).toBe('0');
  });

  it('info, calibrate, overhead, report and compare exit with their own code and no trace of the pipe', async () => {
    const cases = [
      [['info', '--driver', 'host'], '0'],
      [['info', '--driver', 'host', '--json'], '0'],
      [['calibrate', '--driver', 'host', '--plan-bytes', '1MiB'], '0'],
      [['overhead', '--driver', 'host', '--shape', 'A', '--footprint', '4MiB', '--dispatches', '3', '--passes', '2', '--warmup', '0', '--variant', 'dirty-pages', '-o', join(directory, 'overhead.json')], '0'],
      [['report', base], '0'],
      [['report', base, '--json'], '0'],
      [['compare', base, base], '0'],
      [['compare', '--by-device', base, slower, '-o', join(directory, 'merged.json')], '0'],
      // A gate still fails when nobody reads its table.
      [['compare', base, slower], '1'],
    ] as const;
    for (const [args, code] of cases) {
      const { exit, stderr } = await spawnCli(args, { closeStdout: 'at-start' });
      expect(stderr, args.join(' ')).not.toMatch(crashed);
      expect(exit, `${args.join(' ')}: ${stderr}`).toBe(code);
    }
    expect(JSON.parse(await readFile(join(directory, 'overhead.json'), 'utf8'))).toMatchObject({ schema: 'urn:kreplay:schema:overhead-result:1', results: [expect.anything()] });
    expect(JSON.parse(await readFile(join(directory, 'merged.json'), 'utf8'))).toMatchObject({ complete: true });
  }, 180_000);

  it('bench writes its report before it prints it, so a closed stdout loses nothing', async () => {
    const out = join(directory, 'r.json');
    // Ctrl-C once a run is measured keeps the test short; the report then goes out as it would at the end.
    let interrupted = false;
    const { exit, stderr } = await spawnCli(['bench', '--preset', 'quick', '--driver', 'host', '--json', '-o', out], {
      closeStdout: 'at-start',
      onStderr: (text, child) => {
        if (interrupted || !benchMeasuredARun(text)) return;
        interrupted = true;
        child.kill('SIGINT');
      },
    });
    expect(stderr).not.toMatch(crashed);
    expect(exit).toBe('130');
    const report = JSON.parse(await readFile(out, 'utf8')) as BenchReport;
    expect(report.complete).toBe(false);
    expect(report.rows.length).toBeGreaterThan(0);
  }, 300_000);
});
