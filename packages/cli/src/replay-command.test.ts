import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

async function replayJson(strategy: string, extra: string[] = []): Promise<Record<string, unknown>> {
  const io = recordingIo();
  const args = ['replay', '--driver', 'host', '--footprint', '64MiB', '--write-fraction', '0.01', '--dispatches', '20', '--passes', '5'];
  const code = await runCli([...args, '--strategy', strategy, '--verify', 'full', '--json', ...extra], io);
  expect(io.err()).toBe('');
  expect(code).toBe(0);
  return JSON.parse(io.out()) as Record<string, unknown>;
}

describe('kreplay replay', () => {
  it('full copies what the reference design copies, and verifies', async () => {
    const result = await replayJson('full');
    expect(result).toMatchObject({ strategy: 'full', dispatches: 20, passes: 5, footprintBytes: 64 * 2 ** 20, verified: true });
    expect(result.bytesModel).toBe(20 * 64 * 2 ** 20 * 5);
    expect(Math.abs((result.bytesCopied as number) / (result.bytesModel as number) - 1)).toBeLessThanOrEqual(0.01);
    for (const field of ['tier', 'bytesHashed', 'hostHighWaterBytes', 'seconds']) expect(result).toHaveProperty(field);
  });

  it('dirty-pages copies at most 5% of it, and verifies', async () => {
    const result = await replayJson('dirty-pages');
    expect(result.verified).toBe(true);
    expect(result.bytesCopied as number).toBeLessThanOrEqual(0.05 * (result.bytesModel as number));
    expect(result.bytesHashed as number).toBeGreaterThan(0);
  });

  it('write-set copies the read-write state but not the input, and verifies', async () => {
    const result = await replayJson('write-set', ['--tier', 'host-pinned']);
    expect(result).toMatchObject({ verified: true, tier: 'host-pinned' });
    const share = (result.bytesCopied as number) / (result.bytesModel as number);
    expect(share).toBeGreaterThan(0.5);
    expect(share).toBeLessThan(0.95);
    expect(result.hostHighWaterBytes as number).toBeGreaterThan(0);
  });

  it('reports verified null with verification off', async () => {
    const io = recordingIo();
    expect(await runCli(['replay', '--driver', 'host', '--footprint', '1MiB', '--dispatches', '2', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ verified: null });
  });

  it('refuses bad input with a one-line reason', async () => {
    for (const args of [
      ['--footprint', '-5'],
      ['--write-fraction', '2'],
      ['--strategy', 'magic'],
      ['--passes', '0'],
      ['--tier', 'disk'],
    ]) {
      const io = recordingIo();
      expect(await runCli(['replay', '--driver', 'host', ...args], io)).toBe(2);
      expect(io.err().trim().split('\n')).toHaveLength(1);
    }
  });

  it('replays on several agents at once under one host limit, reporting each agent and the whole', async () => {
    const io = recordingIo();
    const args = ['replay', '--driver', 'host', '--agents', '3', '--all-agents', '--footprint', '4MiB', '--dispatches', '4', '--passes', '3'];
    const code = await runCli([...args, '--strategy', 'full', '--tier', 'host-pinned', '--host-limit', '10MiB', '--verify', 'full', '--json'], io);
    expect(code).toBe(0);
    const result = JSON.parse(io.out()) as Record<string, any>;
    expect(result.agents.map((agent: { agentId: number }) => agent.agentId)).toEqual([0, 1, 2]);
    expect(result.bytesModel).toBe(3 * 4 * 4 * 2 ** 20 * 3);
    expect(result.hostBytesLimit).toBe(10 * 2 ** 20);
    expect(result.hostHighWaterBytes).toBeLessThanOrEqual(10 * 2 ** 20);
    expect(result.replayedDispatches + result.declined.length).toBe(12);
    expect(result.replayedDispatches).toBeGreaterThan(0);
    expect(result.declined.every((reason: string) => /host limit/.test(reason))).toBe(true);
    expect(result.verified).toBe(true);
    expect(result.aggregateBytesPerSecond).toBeGreaterThan(0);
  });
});
