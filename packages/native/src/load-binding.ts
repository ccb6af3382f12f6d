import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KreplayError } from './errors/kreplay-error.js';
import type { NativeBinding } from './native-binding.js';

/** Where the addon may be, in the order it is searched. */
export interface BindingCandidate {
  readonly source: string;
  readonly path: string;
}

/**
 * The search order of the addon:
 * 1. the file named by the environment variable `KREPLAY_NATIVE_BINDING`, when set;
 * 2. `build/Release/kreplay.node` of this package (what `pnpm build` and the install script make);
 * 3. `kreplay.node` next to the bundled module file (for a bundle shipped with its addon).
 * @internal
 */
export function bindingCandidates(): BindingCandidate[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates: BindingCandidate[] = [];
  const fromEnvironment = process.env['KREPLAY_NATIVE_BINDING'];
  if (fromEnvironment) candidates.push({ source: 'KREPLAY_NATIVE_BINDING', path: resolve(fromEnvironment) });
  candidates.push({ source: 'the package build', path: join(here, '..', 'build', 'Release', 'kreplay.node') });
  candidates.push({ source: 'next to the bundle', path: join(here, 'kreplay.node') });
  return candidates;
}

let loaded: NativeBinding | undefined;

/**
 * Loads the addon once, from the first candidate of {@link bindingCandidates} that loads.
 * @throws {KreplayError} listing every place searched, why each failed, and how to fix it.
 * @internal
 */
export function loadBinding(): NativeBinding {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const failures: string[] = [];
  for (const candidate of bindingCandidates()) {
    if (!existsSync(candidate.path)) {
      failures.push(`${candidate.source}: ${candidate.path} does not exist`);
      continue;
    }
    try {
      loaded = require(candidate.path) as NativeBinding;
      return loaded;
    } catch (error) {
      failures.push(`${candidate.source}: ${candidate.path} did not load (${(error as Error).message})`);
    }
  }
  throw new KreplayError({
    packageName: 'native',
    component: 'binding',
    message:
      `[native] [binding] the native addon kreplay.node could not be loaded; searched: ${failures.join('; ')}. ` +
      'Build it with `pnpm --filter @kreplay/native build` (needs cmake and a C++17 compiler, downloads nothing); ' +
      'if it exists but does not load, rebuild it for this platform and Node.js (>= 20.17), ' +
      'or point KREPLAY_NATIVE_BINDING at a kreplay.node that does.',
  });
}
