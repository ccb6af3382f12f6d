#!/usr/bin/env node
// Checks how the cuda driver reports an error the device raises while running a queue's work (not
// at submission): a user kernel that writes far outside its buffer. The next synchronize must
// reject with a DriverError whose code is the CUDA error name and whose operationIndex is null.
// A CUDA context that took such a fault stays unusable for the rest of the process (CUDA's rule),
// so this runs in a process of its own, never inside the test suite. Prints the error as JSON.
//   node scripts/check-cuda-device-fault.mjs <scale-floats.ptx>
import { openRuntime } from '../dist/index.js';

const runtime = await openRuntime({ driver: 'cuda' });
const agent = runtime.agents[0];
const kernel = await runtime.loadKernel({
  path: process.argv[2],
  name: 'kreplay_test_scale_floats',
  // No extent: the kernel is trusted to stay inside the allocation, and this one will not.
  parameters: [{ name: 'data', type: 'pointer', access: 'readwrite' }, { name: 'count', type: 'u32' }, { name: 'factor', type: 'f32' }],
});
const buffer = agent.allocate(4096);
const queue = agent.createQueue();
queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 4096, value: 0 });
queue.enqueueKernel(kernel, { data: buffer.address, count: 2 ** 31, factor: 2 }, { grid: [2 ** 23, 1, 1], block: [256, 1, 1] });
const error = await queue.synchronize().then(() => null, (reason) => reason);
console.log(JSON.stringify(error && { name: error.name, code: error.code, operation: error.operation, operationIndex: error.operationIndex, message: error.message }, null, 2));
process.exitCode = error?.name === 'DriverError' && error.operationIndex === null && String(error.code).startsWith('CUDA_ERROR_') ? 0 : 1;
await runtime.dispose().catch((reason) => console.log(`dispose after the fault: ${reason.message}`));
