import { InvalidArgumentError, Option } from 'commander';

/** Commander's argument parser for an option that may be given several times: the values in order. */
export function collectValues(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Commander's argument parser for an option that may be given several times, each value one of
 * `choices`: the values in order. A value outside them is refused with commander's own words
 * (`Allowed choices are A, B.`), so a custom parser does not lose the check `.choices()` makes.
 * @throws InvalidArgumentError for a value outside `choices` (commander exits with a usage error).
 */
export function repeatableChoices<Choice extends string>(choices: readonly Choice[]): (value: string, previous: readonly Choice[] | undefined) => Choice[] {
  return (value, previous) => {
    if (!(choices as readonly string[]).includes(value)) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    return [...(previous ?? []), value as Choice];
  };
}

/** An option that may be given several times, each value one of `choices` (listed in --help). */
export function repeatableChoiceOption(flags: string, description: string, choices: readonly string[]): Option {
  return new Option(flags, description).choices(choices).argParser(repeatableChoices(choices));
}
