import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { refuseWithout, wasGiven } from './option-dependencies.js';

function parsed(args: string[]): Command {
  const command = new Command('bench').option('--slurm').option('--nodes <n>', 'nodes', '1').option('-p, --partition <name>').exitOverride();
  return command.parse(args, { from: 'user' });
}

describe('refuseWithout', () => {
  it('tells a given option from its default', () => {
    expect(wasGiven(parsed([]), '--nodes')).toBe(false);
    expect(wasGiven(parsed(['--nodes', '1']), '--nodes')).toBe(true);
    expect(wasGiven(parsed(['-p', 'x']), '--partition')).toBe(true);
  });

  it('refuses a dependent option without the option it needs, and accepts it with', () => {
    const without = parsed(['-p', 'gpu']);
    expect(() => refuseWithout(without, { flag: '--slurm', present: without.opts()['slurm'] === true }, ['--nodes', '--partition'])).toThrow(
      /^\[cli\] \[bench\] --partition only applies with --slurm\. Add --slurm, or leave out --partition\.$/,
    );
    const withIt = parsed(['--slurm', '-p', 'gpu']);
    expect(() => refuseWithout(withIt, { flag: '--slurm', present: true }, ['--nodes', '--partition'])).not.toThrow();
    expect(() => refuseWithout(parsed([]), { flag: '--slurm', present: false }, ['--nodes', '--partition'])).not.toThrow();
  });
});
