// The check require-packages.cjs and use-packages.mjs both run on the @kreplay/native each loaded
// (through require() or import): a fill, a copy and a hash on the host driver. Returns the line that
// says which kreplay.node loaded.
exports.checkHostCopy = async function checkHostCopy({ openRuntime, nativeAddonPath }) {
  const runtime = await openRuntime({ driver: 'host', host: { agents: 1, deviceMemoryBytes: 1 << 24 } });
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
    return `addon ${runtime.versions.addon} loaded from ${nativeAddonPath()} (node ${process.version}, ${process.arch})`;
  } finally {
    await queue.dispose();
    await runtime.dispose();
  }
};
