// Run by .ci/test-install.sh in a project that installed the packed packages with npm: imports every
// package as a user would (ESM), runs a fill, a copy and a hash on the host driver, and says which
// kreplay.node the native package loaded. require-packages.cjs does the same through require().
import { nativeAddonPath, openRuntime } from '@kreplay/native';
import * as bench from '@kreplay/bench';
import * as cli from '@kreplay/cli';
import * as replay from '@kreplay/replay';
import * as snapshot from '@kreplay/snapshot';
import * as tracker from '@kreplay/tracker';

for (const [name, exports] of Object.entries({ tracker, snapshot, replay, bench, cli })) {
  if (Object.keys(exports).length === 0) throw new Error(`@kreplay/${name} exports nothing`);
}

const runtime = await openRuntime({ driver: 'host', host: { agents: 1, deviceMemoryBytes: 1 << 24 } });
const agent = runtime.agents[0];
const queue = agent.createQueue();
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
const version = runtime.versions.addon;
await queue.dispose();
await runtime.dispose();
console.log(`esm: addon ${version} loaded from ${nativeAddonPath()} (node ${process.version}, ${process.arch})`);
