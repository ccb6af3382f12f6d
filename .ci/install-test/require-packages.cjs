// Run by .ci/test-install.sh on Node 20, 22 and 24 (and on arm64 under qemu) where the packed packages
// are installed: every package through require() (their CommonJS builds), a fill, a copy and a hash on
// the host driver, and which kreplay.node the native package loaded.
const native = require('@kreplay/native');
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
  const runtime = await native.openRuntime({ driver: 'host', host: { agents: 1, deviceMemoryBytes: 1 << 24 } });
  const agent = runtime.agents[0];
  const queue = agent.createQueue();
  try {
    const memory = agent.allocate(1 << 20);
    const mirror = agent.allocate(1 << 20);
    queue.enqueueKernel(runtime.kernels.fill, { destination: memory.address, bytes: 1 << 20, value: 0xdeadbeef });
    queue.enqueueCopy([{ source: memory.address, destination: mirror.address, bytes: 1 << 20 }]);
    const [original, copied] = await Promise.all([
      queue.hashPages([{ address: memory.address, bytes: 1 << 20 }], 64 * 1024),
      queue.hashPages([{ address: mirror.address, bytes: 1 << 20 }], 64 * 1024),
    ]);
    if (original.length !== 16 || original.some((hash, index) => hash !== copied[index])) {
      throw new Error('the copy on the host driver does not hash like its source');
    }
    console.log(`cjs: addon ${runtime.versions.addon} loaded from ${native.nativeAddonPath()} (node ${process.version}, ${process.arch})`);
  } finally {
    await queue.dispose();
    await runtime.dispose();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
