import { InvalidArgumentError, Option } from 'commander';
import type { DriverChoice } from '@kreplay/native';

const driverChoices: readonly DriverChoice[] = ['auto', 'host', 'cuda', 'hsa'];

/** Parses a --driver value, refusing names that are not drivers. */
export function parseDriverChoice(value: string): DriverChoice {
  if ((driverChoices as readonly string[]).includes(value)) return value as DriverChoice;
  throw new InvalidArgumentError(`unknown driver "${value}"; choose one of ${driverChoices.join(', ')}.`);
}

/** The --driver option shared by every command that opens a runtime; `choices` says which drivers the command takes, when not all. */
export function driverOption(choices = driverChoices.join(' | ')): Option {
  return new Option('-d, --driver <driver>', `driver to open: ${choices}`)
    .argParser(parseDriverChoice)
    .default('auto' as DriverChoice);
}
