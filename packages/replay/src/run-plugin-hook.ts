import type { PluginIdentity } from './plugin-identity.js';
import { ReplayPluginError } from './replay-plugin-error.js';

export type { PluginIdentity } from './plugin-identity.js';

/**
 * Calls one synchronous plug-in hook. Whatever it throws comes back as a {@link ReplayPluginError}
 * naming the plug-in and the hook (the cause kept); a hook that returns a Promise is refused the
 * same way, because hooks only enqueue work and must not wait.
 * @throws {ReplayPluginError} when the hook throws or returns a Promise.
 */
export function runPluginHook<T>(plugin: PluginIdentity, hook: string, call: () => T): T {
  let result: T;
  try {
    result = call();
  } catch (error) {
    throw new ReplayPluginError(plugin, hook, error);
  }
  if (isPromiseLike(result)) {
    void Promise.resolve(result).catch(() => undefined);
    throw new ReplayPluginError(plugin, hook, new TypeError(`${hook}() returned a Promise; replay hooks are synchronous`));
  }
  return result;
}

function isPromiseLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
