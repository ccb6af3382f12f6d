import { loadBinding } from '../addon/load-binding.js';
import { argumentError } from '../errors/validate.js';

/**
 * Why the capture library could not use `pattern` as its kernel-name filter
 * (`KREPLAY_CAPTURE_KERNEL_NAME`, `kreplay capture --kernel-name`), or null when it can. The check
 * is the library's own: C++ std::regex with the ECMAScript grammar, which lacks constructs
 * JavaScript's RegExp has (lookbehind, named groups, `\p{...}`); the text gives std::regex's
 * complaint and those constructs. Needs the addon, no GPU.
 * @param pattern the regular expression, as the library would be given it.
 * @throws {ArgumentError} when `pattern` is not a string.
 */
export function captureKernelNameProblem(pattern: string): string | null {
  if (typeof pattern !== 'string') {
    throw argumentError('capture', 'pattern', 'captureKernelNameProblem takes the pattern as a string', 'Pass the --kernel-name text');
  }
  return loadBinding().kernelNamePatternProblem(pattern);
}

/** Which name of a kernel a kernel-name filter matches, as Nsight Compute's `--kernel-name-base` says. */
export type KernelNameBase = 'function' | 'demangled' | 'mangled';

/** The choices of {@link KernelNameBase}, `function` (ncu's default) first. */
export const kernelNameBases: readonly KernelNameBase[] = ['function', 'demangled', 'mangled'];

/** A kernel's names as `--kernel-name-base` names them. */
export interface KernelNames {
  /** Its symbol, as the module holds it. */
  readonly mangled: string;
  /** Demangled (abi::__cxa_demangle), with its return type, template arguments and parameters; the symbol when it is not mangled. */
  readonly demangled: string;
  /** The function's name alone: the demangled name without return type, namespaces and classes, template arguments and parameters. */
  readonly function: string;
}

/**
 * The names of the kernel whose symbol is `symbol`, as the capture library computes them.
 * @throws {ArgumentError} when `symbol` is not a string.
 */
export function kernelNames(symbol: string): KernelNames {
  if (typeof symbol !== 'string') throw argumentError('capture', 'symbol', 'kernelNames takes the kernel symbol as a string', 'Pass the launch function name');
  return { mangled: symbol, ...loadBinding().kernelNames(symbol) };
}

/**
 * Why `name` cannot be a kernel-name filter (`--kernel-name`: a name matched whole, or
 * `regex:EXPRESSION` searched), or null when it can: the capture library's complaint about an
 * expression its std::regex cannot compile.
 * @throws {ArgumentError} when `name` is not a string.
 */
export function kernelNameFilterProblem(name: string): string | null {
  if (typeof name !== 'string') throw argumentError('capture', 'name', 'kernelNameFilterProblem takes the --kernel-name text as a string', 'Pass the --kernel-name text');
  if (name === '') return 'it is empty';
  return name.startsWith('regex:') ? captureKernelNameProblem(name.slice('regex:'.length)) : null;
}

/**
 * Which of `symbols` the kernel-name filter `filter.name` selects in the names `filter.base` names,
 * as the capture library selects them (`--kernel-name` and `--kernel-name-base` of ncu).
 * @throws {ArgumentError} for a filter kernelNameFilterProblem refuses, or a base that is not one.
 */
export function matchKernelNames(filter: { readonly name: string; readonly base: KernelNameBase }, symbols: readonly string[]): boolean[] {
  const problem = kernelNameFilterProblem(filter.name);
  if (problem !== null) throw argumentError('capture', 'filter.name', `--kernel-name ${filter.name} cannot be used: ${problem}`, 'Rewrite the name or its regex: expression');
  if (!kernelNameBases.includes(filter.base)) throw argumentError('capture', 'filter.base', `the kernel-name base ${String(filter.base)} is not one of ${kernelNameBases.join(', ')}`, 'Pass function, demangled or mangled');
  return loadBinding().kernelNameFilterMatches(filter.name, filter.base, symbols);
}
