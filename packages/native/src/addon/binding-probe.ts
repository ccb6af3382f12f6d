/**
 * Loads the addon the way the package does and reports where it came from: `scripts/install.mjs`
 * runs this file (dist/binding-probe.js) in a child process to decide whether a build is needed.
 * Exit status 0 and the addon's path on stdout when one loads; 1 and the load error on stderr when
 * none does.
 * @internal
 */
import { loadedBindingCandidate } from './load-binding.js';

try {
  const candidate = loadedBindingCandidate();
  console.log(`${candidate.source}: ${candidate.path}`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
