import { describe, expect, it } from 'vitest';
import { declineBeforePreparing } from './decline.js';
import { fakeRequest, fakeSetup } from './test-support/fake-setup.js';
import { testStrategy } from './test-support/test-strategy.js';

describe('declines (fake runtime)', () => {
  const cases = [
    { name: 'graph launches', extra: { graph: true }, code: 'graph', reason: /graph launch/ },
    { name: 'cross-device dispatches', extra: { crossDevice: true }, code: 'cross-device', reason: /cross-device/ },
  ] as const;
  for (const { name, extra, code, reason } of cases) {
    it(`runs ${name} exactly once, unreplayed, without preparing a snapshot`, async () => {
      const setup = fakeSetup();
      const strategy = testStrategy();
      const engine = setup.engine({ strategy, verify: 'full' });
      const buffer = setup.buffer(1000, 10);
      const result = await engine.dispatch({ ...fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 1000 }), ...extra });
      expect(buffer.data.every((byte) => byte === 11)).toBe(true);
      expect(result).toMatchObject({ replayed: false, declineCode: code, passes: 1, verified: null, tier: null });
      expect(result.declineReason).toMatch(reason);
      expect(strategy.calls.prepare).toBe(0);
    });
  }

  it('runs a dispatch with an unresolvable pointer exactly once, and says which pointer', async () => {
    const setup = fakeSetup();
    const strategy = testStrategy();
    const engine = setup.engine({ strategy });
    const untracked = setup.runtime.memory.allocate(64, 'device', 0, true);
    const queue = setup.queue();
    const result = await engine.dispatch(fakeRequest(queue, 'fill', { destination: untracked.address, bytes: 64, value: 9 }));
    expect(result).toMatchObject({ replayed: false, declineCode: 'unresolved-arguments', passes: 1 });
    expect(result.declineReason).toContain(`"destination" (0x${untracked.address.toString(16)})`);
    expect(strategy.calls.prepare).toBe(0);
    expect(queue.log.filter((entry) => entry.startsWith('kernel'))).toEqual(['kernel fill']);
    expect(untracked.data.every((byte) => byte === 9)).toBe(true);
  });

  it('runs a dispatch whose snapshot is over budget exactly once, with the strategy reason', async () => {
    const setup = fakeSetup(100);
    const strategy = testStrategy();
    const engine = setup.engine({ strategy });
    const buffer = setup.buffer(1000, 4);
    const result = await engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 1000 }));
    expect(buffer.data.every((byte) => byte === 5)).toBe(true);
    expect(result).toMatchObject({ replayed: false, declineCode: 'snapshot-declined', passes: 1 });
    expect(result.declineReason).toMatch(/strategy test-write-set declined: over the host limit of 100 bytes/);
    expect(strategy.calls.prepare).toBe(1);
  });

  it('declines as cross-device work a pointer into another agent\'s memory (peer access), before unresolved pointers', () => {
    const setup = fakeSetup();
    const request = fakeRequest(setup.queue(), 'fill', { destination: 0x1000, bytes: 64, value: 9 });
    const decline = declineBeforePreparing(request, {
      reached: [],
      bounded: true,
      reasons: [],
      unresolved: [
        { parameter: 'other', address: 0x9000 },
        { parameter: 'destination', address: 0x1000, peerAgentId: 3 },
      ],
    });
    expect(decline).toMatchObject({ code: 'cross-device' });
    expect(decline!.reason).toMatch(/"destination" \(agent 3\) \(peer access\)/);
  });
});
