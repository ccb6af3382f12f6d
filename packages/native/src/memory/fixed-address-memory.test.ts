import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { requireExactAddress } from './fixed-address-memory.js';
import { openRuntime } from '../runtime/open-runtime.js';
import { requireReservations } from './reserve-addresses.js';
import type { Runtime } from '../runtime/runtime-objects.js';

describe('memory at chosen addresses on the host driver', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { deviceMemoryBytes: 16 << 20, threads: 2 } });
  });
  afterAll(() => runtime.dispose());

  it('refuses allocateAt and allocateHostAt with UnsupportedError naming the feature', async () => {
    for (const call of [() => runtime.allocateAt(0, 0x7f0000000000n, 4096), () => runtime.allocateHostAt(0x7f0000000000n, 4096)]) {
      const error = await call().catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(UnsupportedError);
      expect(error).toMatchObject({ driver: 'host', feature: 'memory at chosen addresses' });
      expect((error as Error).message).toMatch(/cuda driver/);
    }
  });

  it('checks the agent, address and size first', async () => {
    const argument = async (promise: Promise<unknown>) => ((await promise.catch((error: unknown) => error)) as ArgumentError).argument;
    expect(await argument(runtime.allocateAt(1, 0x7f0000000000n, 4096))).toBe('agentId');
    expect(await argument(runtime.allocateAt(0, 0n, 4096))).toBe('address');
    expect(await argument(runtime.allocateAt(0, 2n ** 60n, 4096))).toBe('address');
    expect(await argument(runtime.allocateAt(0, 0x7f0000000000n, 0))).toBe('bytes');
    expect(await argument(runtime.allocateHostAt('0x1000' as never, 4096))).toBe('address');
  });

  it('refuses kernelGlobal of a kernel this runtime did not load', async () => {
    await expect(runtime.kernelGlobal(runtime.kernels.fill, 0, 'x')).rejects.toBeInstanceOf(ArgumentError);
  });

  it('refuses reserveAddresses on the host driver with UnsupportedError, and with auto as an ArgumentError', async () => {
    const range = [{ address: 0x7f0000000000n, bytes: 4096 }];
    await expect(openRuntime({ driver: 'host', reserveAddresses: range })).rejects.toBeInstanceOf(UnsupportedError);
    const error = (await openRuntime({ reserveAddresses: range }).catch((reason: unknown) => reason)) as ArgumentError;
    expect(error).toBeInstanceOf(ArgumentError);
    expect(error.message).toMatch(/driver: 'cuda'/);
  });
});

describe('reservation ranges', () => {
  it('takes bigint or safe-integer addresses, positive sizes and whether device memory goes there', () => {
    expect(requireReservations('cuda', [{ address: 0x7f0000001000n, bytes: 10 }])).toEqual([{ address: 0x7f0000001000, bytes: 10, device: false }]);
    expect(requireReservations('cuda', [{ address: 0x7f0000001000n, bytes: 10, device: true }])).toEqual([{ address: 0x7f0000001000, bytes: 10, device: true }]);
    expect(requireReservations('cuda', undefined)).toEqual([]);
    expect(requireReservations('host', [])).toEqual([]);
    expect(requireExactAddress('memory', 'address', 4096)).toBe(4096);
  });

  it('refuses malformed ranges, naming the entry', () => {
    const argument = (value: unknown) => {
      try {
        requireReservations('cuda', value);
      } catch (error) {
        expect(error).toBeInstanceOf(ArgumentError);
        return (error as ArgumentError).argument;
      }
      throw new Error('accepted');
    };
    expect(argument({})).toBe('options.reserveAddresses');
    expect(argument([{ address: -1n, bytes: 10 }])).toBe('options.reserveAddresses[0].address');
    expect(argument([{ address: 0x1000n, bytes: 10 }, { address: 0x2000n, bytes: 0 }])).toBe('options.reserveAddresses[1].bytes');
    expect(argument([{ address: 0x1000n, bytes: 10, kind: 'device' }])).toBe('options.reserveAddresses[0].kind');
    expect(argument([{ address: 0x1000n, bytes: 10, device: 'yes' }])).toBe('options.reserveAddresses[0].device');
    expect(argument([{ address: BigInt(Number.MAX_SAFE_INTEGER) - 1n, bytes: 10 }])).toBe('options.reserveAddresses[0]');
  });
});
