import { InvalidArgumentError, Option } from 'commander';
import { kernelNameBases, kernelNameFilterProblem, type KernelNameBase } from '@kreplay/native';

/**
 * Parses --kernel-name as ncu reads it: a name matched whole, or `regex:EXPRESSION` searched (as the
 * capture library compiles it: C++ std::regex, ECMAScript grammar).
 * @throws InvalidArgumentError for an empty name or an expression std::regex cannot compile (commander exits 2).
 */
export function parseKernelNameFilter(text: string): string {
  const problem = kernelNameFilterProblem(text);
  if (problem !== null) throw new InvalidArgumentError(`"${text}" cannot select kernels: ${problem}.`);
  return text;
}

/** What --kernel-name says, for a flag's help. */
export const kernelNameHelp =
  'a kernel name, matched whole, or regex:EXPRESSION, searched (C++ std::regex, ECMAScript grammar: no lookbehind, named groups or \\p{...}), in the name --kernel-name-base names';

/** --kernel-name-base, ncu's choice of the name --kernel-name matches (default `function`). */
export function kernelNameBaseOption(what: string): Option {
  return new Option(
    '--kernel-name-base <base>',
    `${what}: the name --kernel-name matches: function (its name alone: no return type, namespace, template arguments or parameters), demangled or mangled`,
  )
    .choices([...kernelNameBases])
    .default('function' satisfies KernelNameBase);
}

/** In words, the kernels a filter selects: `kernels whose function name is gemm`, `... matches /gemm/`. */
export function describeKernelName(name: string, base: KernelNameBase): string {
  const which = base === 'function' ? 'function name' : `${base} name`;
  return name.startsWith('regex:') ? `${which} matches /${name.slice('regex:'.length)}/` : `${which} is ${name}`;
}
