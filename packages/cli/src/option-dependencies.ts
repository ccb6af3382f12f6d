import type { Command } from 'commander';
import { UsageError } from './usage-error.js';

/** Whether the user gave `flag` (on the command line or through its environment variable), not its default. */
export function wasGiven(command: Command, flag: string): boolean {
  const option = command.options.find((candidate) => candidate.long === flag || candidate.short === flag);
  if (option === undefined) return false;
  const source = command.getOptionValueSource(option.attributeName());
  return source === 'cli' || source === 'env';
}

/**
 * Refuses options that only mean something with another one, when that one is missing: `bench
 * --partition x` without `--slurm` would otherwise run a local bench and ignore the partition.
 * @throws UsageError naming the first such option and the one it needs.
 */
export function refuseWithout(command: Command, needed: { readonly flag: string; readonly present: boolean }, dependents: readonly string[]): void {
  if (needed.present) return;
  const given = dependents.find((flag) => wasGiven(command, flag));
  if (given !== undefined) {
    throw new UsageError(command.name(), `${given} only applies with ${needed.flag}`, `Add ${needed.flag}, or leave out ${given}`);
  }
}
