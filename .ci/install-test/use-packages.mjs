// Run by .ci/test-install.sh in a project that installed the packed packages with npm: imports every
// package as a user would (ESM), runs a fill, a copy and a hash on the host driver, and says which
// kreplay.node the native package loaded. require-packages.cjs does the same through require().
import { nativeAddonPath, openRuntime } from '@kreplay/native';
import * as bench from '@kreplay/bench';
import * as cli from '@kreplay/cli';
import * as replay from '@kreplay/replay';
import * as snapshot from '@kreplay/snapshot';
import * as tracker from '@kreplay/tracker';
import { checkHostCopy } from './host-copy-check.cjs';

for (const [name, exports] of Object.entries({ tracker, snapshot, replay, bench, cli })) {
  if (Object.keys(exports).length === 0) throw new Error(`@kreplay/${name} exports nothing`);
}

console.log(`esm: ${await checkHostCopy({ openRuntime, nativeAddonPath })}`);
