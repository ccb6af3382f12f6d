import { KreplayError } from '@kreplay/native';
import type { PluginIdentity } from './plugin-identity.js';

/**
 * A strategy or pass-provider hook threw (or broke its contract). Names the plug-in and the hook;
 * `cause` is what it threw. The dispatch that called it did not complete: the engine waited for
 * the queue and released its staging before rethrowing.
 */
export class ReplayPluginError extends KreplayError {
  /** `strategy` or `pass provider`. */
  readonly pluginKind: PluginIdentity['kind'];
  readonly pluginName: string;
  /** The hook that failed, e.g. `prepare`, `snapshot.restore`, `beginPass`. */
  readonly hook: string;

  /** Wraps `cause`, what the hook `hook` of `plugin` threw. */
  constructor(plugin: PluginIdentity, hook: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super({
      packageName: 'replay',
      component: plugin.kind,
      message: `[replay] [${plugin.kind}] the ${plugin.kind} "${plugin.name}" failed in ${hook}(): ${reason}. Fix the ${plugin.kind} (or report it to its authors); the dispatch did not complete.`,
      cause,
    });
    this.name = 'ReplayPluginError';
    this.pluginKind = plugin.kind;
    this.pluginName = plugin.name;
    this.hook = hook;
  }
}
