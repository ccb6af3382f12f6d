import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { checkHostArenas, hostMemoryReserveBytes, hostStagingBudget } from './host-memory-limit.js';
import { openRuntime } from '../runtime/open-runtime.js';

const GiB = 2 ** 30;
const messageForm = /^\[native\] \[runtime\] .+\. .+\.$/s;

function refusal(action: () => unknown): ArgumentError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toMatch(messageForm);
    return error as ArgumentError;
  }
  throw new Error('expected an ArgumentError');
}

describe('host driver arenas against physical memory', () => {
  it('keeps max(1 GiB, 10%) of physical memory in reserve', () => {
    expect(hostMemoryReserveBytes(4 * GiB)).toBe(GiB);
    expect(hostMemoryReserveBytes(24 * GiB)).toBeCloseTo(2.4 * GiB, -3);
    expect(hostMemoryReserveBytes(1024 * GiB)).toBeCloseTo(102.4 * GiB, -3);
  });

  it('refuses 48 GiB of device memory on a 24 GiB machine, naming every figure and the fix', () => {
    const error = refusal(() => checkHostArenas({ agents: 1, deviceMemoryBytes: 48 * GiB, physicalBytes: 24 * GiB }));
    expect(error.argument).toBe('options.host.deviceMemoryBytes');
    expect(error.message).toContain('1 agent x 48 GiB = 48 GiB requested');
    expect(error.message).toContain('24 GiB of physical memory');
    expect(error.message).toContain('2.4 GiB kept in reserve');
    expect(error.message).toContain('21.6 GiB available');
    expect(error.message).toMatch(/--device-memory/);
    expect(error.message).toMatch(/--agents/);
  });

  it('counts every emulated agent, and allows what fits', () => {
    expect(() => checkHostArenas({ agents: 3, deviceMemoryBytes: 7 * GiB, physicalBytes: 24 * GiB })).not.toThrow();
    const error = refusal(() => checkHostArenas({ agents: 4, deviceMemoryBytes: 6 * GiB, physicalBytes: 24 * GiB }));
    expect(error.message).toContain('4 agents x 6 GiB = 24 GiB requested');
    expect(() => checkHostArenas({ agents: 1, deviceMemoryBytes: GiB, physicalBytes: 2 * GiB })).not.toThrow();
    refusal(() => checkHostArenas({ agents: 1, deviceMemoryBytes: GiB + 4096, physicalBytes: 2 * GiB }));
  });

  it('holds the arenas within a host byte limit when one is given', () => {
    expect(() => checkHostArenas({ agents: 2, deviceMemoryBytes: GiB, physicalBytes: 24 * GiB, hostBytesLimit: 2 * GiB })).not.toThrow();
    const error = refusal(() => checkHostArenas({ agents: 2, deviceMemoryBytes: GiB, physicalBytes: 24 * GiB, hostBytesLimit: 1.5 * GiB }));
    expect(error.message).toContain('2 agents x 1 GiB = 2 GiB requested');
    expect(error.message).toContain('host limit of 1.5 GiB');
    expect(error.message).toContain('1.5 GiB available');
  });

  it('openRuntime refuses arenas this machine cannot hold before opening the driver', async () => {
    const deviceMemoryBytes = Math.ceil(totalmem() / 4096) * 4096;
    const error = await openRuntime({ driver: 'host', host: { deviceMemoryBytes } }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toMatch(/requested, .* of physical memory/);
    const limited = await openRuntime({ driver: 'host', host: { agents: 2, deviceMemoryBytes: 1 << 20, hostBytesLimit: 1 << 20 } }).catch((reason: unknown) => reason);
    expect(limited).toBeInstanceOf(ArgumentError);
    await using fits = await openRuntime({ driver: 'host', host: { agents: 2, deviceMemoryBytes: 1 << 20, hostBytesLimit: 2 << 20, threads: 1 } });
    expect(fits.agents).toHaveLength(2);
  });

  it('openRuntime with driver auto refuses them too when it falls back to the host driver', async () => {
    const deviceMemoryBytes = Math.ceil(totalmem() / 4096) * 4096;
    const outcome = await openRuntime({ host: { deviceMemoryBytes } }).catch((reason: unknown) => reason);
    if (outcome instanceof ArgumentError) {
      expect(outcome.message).toMatch(/of physical memory/);
    } else {
      // A GPU driver opened: the host options do not apply to it.
      const runtime = outcome as Awaited<ReturnType<typeof openRuntime>>;
      expect(runtime.driver).not.toBe('host');
      await runtime.dispose();
    }
  });

  it("leaves host staging what the machine holds beyond the reserve and the host driver's arenas", () => {
    const hostRuntime = (agents: number, deviceMemoryBytes: number) => ({ driver: 'host', agents: Array.from({ length: agents }, () => ({ info: { deviceMemoryBytes } })) });
    // 8 GiB of device memory and a 7 GiB footprint on a 16 GiB machine: staging a full snapshot
    // beside the arena would take 7 GiB more than the 6.4 GiB left.
    expect(hostStagingBudget(hostRuntime(1, 8 * GiB), 16 * GiB)).toEqual({ bytes: 16 * GiB - Math.ceil(1.6 * GiB) - 8 * GiB, physicalBytes: 16 * GiB, reserveBytes: Math.ceil(1.6 * GiB), arenaBytes: 8 * GiB });
    expect(hostStagingBudget(hostRuntime(2, 5 * GiB), 24 * GiB).bytes).toBe(24 * GiB - Math.ceil(2.4 * GiB) - 10 * GiB);
    // 21 GiB of device memory on a 24 GiB machine passes the arena check (21.6 GiB available), and leaves 0.6 GiB.
    expect(() => checkHostArenas({ agents: 1, deviceMemoryBytes: 21 * GiB, physicalBytes: 24 * GiB })).not.toThrow();
    expect(hostStagingBudget(hostRuntime(1, 21 * GiB), 24 * GiB).bytes).toBe(24 * GiB - Math.ceil(2.4 * GiB) - 21 * GiB);
    expect(hostStagingBudget(hostRuntime(1, 4 * GiB), 4 * GiB).bytes).toBe(0);
    // A GPU's device memory is not this machine's: only the reserve is kept.
    expect(hostStagingBudget({ driver: 'cuda', agents: [{ info: { deviceMemoryBytes: 80 * GiB } }] }, 24 * GiB)).toMatchObject({ bytes: 24 * GiB - Math.ceil(2.4 * GiB), arenaBytes: 0 });
    expect(hostStagingBudget(hostRuntime(1, GiB)).physicalBytes).toBe(totalmem());
  });
});
