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
