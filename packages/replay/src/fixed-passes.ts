import type { PassProvider } from './pass-provider.js';
import { passProviderSpecificationVersion } from './pass-provider.js';
import { requirePassCount } from './validate.js';

/**
 * A pass provider that gives every dispatch `count` passes and collects nothing: for benchmarks.
 * @throws {ArgumentError} when `count` is not an integer >= 1.
 */
export function fixedPasses(count: number): PassProvider {
  const passes = requirePassCount('fixed-passes', count);
  return {
    specificationVersion: passProviderSpecificationVersion,
    name: `fixed(${passes})`,
    passCount: () => passes,
    beginPass() {},
    endPass() {},
  };
}
