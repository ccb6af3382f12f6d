/**
 * Run in a fresh Node.js process by cuda-fixed-addresses.test.ts: opens the cuda driver with
 * `reserveAddresses` (argv[2]: the address, argv[3]: bytes, argv[4] `device` to mark it for device
 * memory), reports what held the range in /proc/self/maps after openRuntime, then allocates at the address, writes and reads it back, and
 * prints one JSON line.
 */
import { openRuntime } from '../../src/index.js';
import { processMappings } from './fixed-address-ranges.js';

const address = BigInt(process.argv[2]!);
const bytes = Number(process.argv[3]!);
const device = process.argv[4] === 'device';
const runtime = await openRuntime({ driver: 'cuda', reserveAddresses: [{ address, bytes, ...(device ? { device } : {}) }] });
const placeholder = processMappings().find((mapping) => mapping.start <= address && mapping.end >= address + BigInt(bytes));
const allocation = await runtime.allocateAt(0, address, bytes);
const agent = runtime.agents[0]!;
const pattern = Uint8Array.from({ length: bytes }, (_, index) => (index * 7 + 3) & 0xff);
await agent.write(allocation.address, pattern);
const read = await agent.read(allocation.address, bytes);
allocation.free();
await runtime.dispose();
console.log(
  JSON.stringify({
    placeholder: placeholder?.line ?? null,
    address: allocation.address,
    roundTrip: Buffer.from(read).equals(Buffer.from(pattern)),
  }),
);
