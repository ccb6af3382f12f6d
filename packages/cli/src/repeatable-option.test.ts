import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { repeatableChoiceOption } from './repeatable-option.js';

function parse(args: string[]): { readonly shape?: string[]; readonly error: string } {
  let error = '';
  const command = new Command('try')
    .addOption(repeatableChoiceOption('--shape <shape>', 'a shape', ['A', 'B']))
    .exitOverride()
    .configureOutput({ writeErr: (text) => void (error += text) });
  try {
    command.parse(args, { from: 'user' });
  } catch (caught) {
    if (!(caught instanceof CommanderError)) throw caught;
  }
  return { ...(command.opts() as { shape?: string[] }), error };
}

describe('repeatableChoiceOption', () => {
  it('collects every value in order and lists the choices in the help', () => {
    expect(parse(['--shape', 'B', '--shape', 'A']).shape).toEqual(['B', 'A']);
    expect(parse([]).shape).toBeUndefined();
    expect(repeatableChoiceOption('--shape <shape>', 'a shape', ['A', 'B']).argChoices).toEqual(['A', 'B']);
  });

  it('refuses a value outside the choices in the words commander uses for .choices()', () => {
    const plain = new Command('try').addOption(repeatableChoiceOption('--shape <shape>', 'a shape', ['A', 'B']));
    expect(plain.options[0]?.argChoices).toEqual(['A', 'B']);
    expect(parse(['--shape', 'A', '--shape', 'C']).error).toBe("error: option '--shape <shape>' argument 'C' is invalid. Allowed choices are A, B.\n");
  });
});
