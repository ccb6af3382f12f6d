import { describe, expect, it } from 'vitest';
import { openRuntime } from '@kreplay/native';
import { jsonSchemaProblem, replayResultJsonSchema, runReplayExperiment } from '@kreplay/bench';
import type { ReplayExperimentOptions } from '@kreplay/bench';
import { fullStrategy } from '@kreplay/snapshot';
import { restoreNothingStrategy } from '@kreplay/snapshot/test';
import { describeReplay, verificationFailure } from './commands/replay-command.js';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

const experiment: ReplayExperimentOptions = { strategy: 'full', tier: 'device', footprintBytes: 1 << 20, writeFraction: 0.25, dispatches: 3, passes: 3, verify: 'full' };

async function replayJson(strategy: string, extra: string[] = []): Promise<Record<string, unknown>> {
  const io = recordingIo();
  const args = ['replay', '--driver', 'host', '--footprint', '64MiB', '--write-fraction', '0.01', '--dispatches', '20', '--passes', '5'];
  const code = await runCli([...args, '--strategy', strategy, '--verify', 'full', '--json', ...extra], io);
  expect(io.err()).toBe('');
  expect(code).toBe(0);
  return JSON.parse(io.out()) as Record<string, unknown>;
}

describe('kreplay replay', () => {
  it('prints progress lines with done/total, rate and ETA on stderr when it is not a terminal, and pure JSON on stdout', async () => {
    // A clock that moves 1 s at every reading, lines every 5 s of it.
    let time = 0;
    const io = recordingIo({ now: () => (time += 1000), progressIntervalMs: 5000 });
    expect(await runCli(['replay', '--driver', 'host', '--footprint', '1MiB', '--dispatches', '12', '--passes', '2', '--json'], io)).toBe(0);
    const printed = JSON.parse(io.out()) as unknown;
    expect(printed).toMatchObject({ schema: 'urn:kreplay:schema:replay-result:1', schemaVersion: 1, dispatches: 12, passes: 2 });
    expect(jsonSchemaProblem(replayResultJsonSchema, printed)).toBeNull();
    expect(io.err()).toBe(
      ['replay: 5/12 dispatches (41%), 1.00 dispatches/s, ETA 7 s', 'replay: 10/12 dispatches (83%), 1.00 dispatches/s, ETA 2 s', 'replay: 12/12 dispatches (100%) in 13 s, 0.923 dispatches/s', ''].join('\n'),
    );
  });

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

  it('says "nothing verified", with the declines by reason, when every dispatch was declined', async () => {
    const args = ['replay', '--driver', 'host', '--footprint', '1MiB', '--dispatches', '3', '--passes', '3', '--strategy', 'full', '--tier', 'host-pinned', '--host-limit', '4', '--verify', 'full'];
    const io = recordingIo();
    expect(await runCli(args, io)).toBe(0);
    expect(io.out()).toMatch(/replayed 0\/3; nothing verified\n/);
    expect(io.out()).toMatch(/ {2}declined 3: snapshot-declined 3\n/);
    expect(io.out()).not.toMatch(/verified (true|false)/);
    const json = recordingIo();
    expect(await runCli([...args, '--json'], json)).toBe(0);
    expect(JSON.parse(json.out())).toMatchObject({ verified: null, declinedByReason: { 'snapshot-declined': 3 }, verification: { 'not-run': 3 } });
  });

  it('says "nothing verified" with one pass', async () => {
    const args = ['replay', '--driver', 'host', '--footprint', '1MiB', '--dispatches', '2', '--passes', '1', '--verify', 'full'];
    const io = recordingIo();
    expect(await runCli(args, io)).toBe(0);
    expect(io.out()).toMatch(/replayed 0\/2; nothing verified\n/);
    const json = recordingIo();
    expect(await runCli([...args, '--json'], json)).toBe(0);
    expect(JSON.parse(json.out())).toMatchObject({ verified: null });
  });

  it('counts the verified dispatches of a run that verified', async () => {
    const io = recordingIo();
    expect(await runCli(['replay', '--driver', 'host', '--footprint', '1MiB', '--dispatches', '2', '--passes', '3', '--verify', 'restore'], io)).toBe(0);
    expect(io.out()).toMatch(/replayed 2\/2; verified 2\/2 replayed\n/);
  });

  it('fails, after printing the results, when a replayed dispatch failed verification', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const strategy = restoreNothingStrategy(fullStrategy({ tier: 'device' }));
    const result = await runReplayExperiment(runtime, { ...experiment, strategy, verify: 'restore' });
    strategy.dispose?.();
    expect(describeReplay(result)).toMatch(/replayed 3\/3; verification FAILED for 3 dispatch\(es\)\n/);
    const error = verificationFailure(result);
    expect(error?.message).toMatch(/^\[cli\] \[replay\] 3 of 3 replayed dispatch\(es\) failed verification/);
  });

  it('tells a verification that could not be completed from a mismatch, and does not fail for it', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    runtime.injectFault({ operation: 'hash', count: 1_000_000 });
    const result = await runReplayExperiment(runtime, experiment);
    runtime.clearFaults();
    const text = describeReplay(result);
    expect(text).toMatch(/replayed 3\/3; verification incomplete for 3 dispatch\(es\)/);
    expect(text).not.toMatch(/FAILED/);
    expect(verificationFailure(result)).toBeUndefined();
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

  it('--range K replays ranges of K consecutive dispatches, listing per-dispatch values and each range', async () => {
    const result = (await replayJson('dirty-pages', ['--dispatches', '10', '--range', '4'])) as Record<string, any>;
    expect(result).toMatchObject({ range: 4, dispatches: 10, replayedDispatches: 10, verified: true });
    expect(result.ranges.map((range: { firstDispatch: number; dispatches: unknown[] }) => [range.firstDispatch, range.dispatches.length])).toEqual([
      [0, 4],
      [4, 4],
      [8, 2],
    ]);
    for (const range of result.ranges) {
      expect(range).toMatchObject({ replayed: true, passes: 5, verified: true });
      expect(range.bytesCopied).toBeGreaterThan(0);
      expect(range.timings.passMs).toHaveLength(5);
      for (const dispatch of range.dispatches) expect(dispatch).toMatchObject({ kernelName: 'scatterWrite', collected: expect.any(Array) });
    }
    const io = recordingIo();
    expect(await runCli(['replay', '--driver', 'host', '--footprint', '4MiB', '--dispatches', '5', '--passes', '3', '--range', '2', '--verify', 'full'], io)).toBe(0);
    expect(io.out()).toMatch(/\n {2}ranges of 2 dispatches: replayed 3\/3 ranges\n/);
    expect(io.out()).toMatch(/verified 3\/3 replayed/);
    expect(await runCli(['replay', '--driver', 'host', '--range', '0'], recordingIo())).toBe(2);
  });
});
