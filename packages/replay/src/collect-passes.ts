import type { Queue } from '@kreplay/native';
import type { PassProvider } from './pass-provider.js';
import { runPluginHook } from './run-plugin-hook.js';
import { phaseCompleted, type WindowPhase } from './window-phase.js';

/**
 * Calls the provider's `collect` (when it has one) with the passes that ran to their end.
 * @throws {ReplayPluginError} when `collect` throws.
 */
export function collectPasses(provider: PassProvider, queue: Queue, phases: readonly WindowPhase[]): { readonly value: unknown } | undefined {
  const collect = provider.collect?.bind(provider);
  if (collect === undefined) return undefined;
  const completedPasses = phases.filter((step) => step.kind === 'pass' && phaseCompleted(step)).map((step) => step.pass);
  return { value: runPluginHook({ kind: 'pass provider', name: provider.name }, 'collect', () => collect(queue, completedPasses)) };
}

/**
 * What a range's passes collected: per dispatch through the provider's `collectRange` when it has
 * one (then `collect` is not called), else `collect`'s one value for the whole range.
 * @throws {ReplayPluginError} when `collectRange` or `collect` throws, or `collectRange` does not return one value per dispatch.
 */
export function collectRangePasses(
  provider: PassProvider,
  queue: Queue,
  phases: readonly WindowPhase[],
  dispatches: number,
): { readonly whole: { readonly value: unknown } | undefined; readonly perDispatch: readonly unknown[] | undefined } {
  const collectRange = provider.collectRange?.bind(provider);
  if (collectRange === undefined) return { whole: collectPasses(provider, queue, phases), perDispatch: undefined };
  const completedPasses = phases.filter((step) => step.kind === 'pass' && phaseCompleted(step)).map((step) => step.pass);
  const perDispatch = runPluginHook({ kind: 'pass provider', name: provider.name }, 'collectRange', () => {
    const values = collectRange(queue, completedPasses, dispatches);
    if (!Array.isArray(values) || values.length !== dispatches) {
      throw new TypeError(`collectRange() must return an array of one value per dispatch (${dispatches}), got ${Array.isArray(values) ? `${values.length} values` : typeof values}`);
    }
    return values;
  });
  return { whole: undefined, perDispatch };
}
