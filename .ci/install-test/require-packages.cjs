// Run by .ci/test-install.sh on Node 20, 22 and 24 (and on arm64 under qemu) where the packed packages
// are installed: every package through require() (their CommonJS builds), a fill, a copy and a hash on
// the host driver, and which kreplay.node the native package loaded.
const native = require('@kreplay/native');
const { checkHostCopy } = require('./host-copy-check.cjs');
const packages = {
  tracker: require('@kreplay/tracker'),
  snapshot: require('@kreplay/snapshot'),
  replay: require('@kreplay/replay'),
  bench: require('@kreplay/bench'),
  cli: require('@kreplay/cli'),
};
for (const [name, exports] of Object.entries(packages)) {
  if (Object.keys(exports).length === 0) throw new Error(`require('@kreplay/${name}') gives nothing`);
}
if (typeof packages.replay.createReplayEngine !== 'function' || typeof packages.snapshot.fullStrategy !== 'function') {
  throw new Error('the CommonJS builds lack their main functions');
}

async function main() {
  console.log(`cjs: ${await checkHostCopy(native)}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
