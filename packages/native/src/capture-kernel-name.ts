import { loadBinding } from './load-binding.js';
import { argumentError } from './validate.js';

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
