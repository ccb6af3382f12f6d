import { describe, expect, it } from 'vitest';
import { ArgumentError, DriverError, openRuntime, UnsupportedError } from '@kreplay/native';
import type { Queue, Runtime } from '@kreplay/native';
import { cuptiPasses } from './cupti-passes.js';
import { defaultProfileConditions } from './profile-conditions.js';

/** A stand-in for a cuda runtime's profiler: records the calls, answers like CUPTI after 3 passes. */
function fakeCudaRuntime(passCount: number, failure?: DriverError) {
  const calls: string[] = [];
  let dispatch = 0;
  let dispatchesPerPass = 1;
  const agents = [{ id: 0 }];
  const session = {
    metrics: ['gpu__time_duration.sum', 'dram__bytes_write.sum'],
    passCount,
    plan: { chip: 'GH100', passCount, configImageBytes: 1, units: ['nanosecond', 'byte'] },
    beginPass: (queue: Queue, pass: number, scope?: { dispatches?: number }) => {
      if (pass === 1) dispatchesPerPass = scope?.dispatches ?? 1;
      calls.push(`begin ${queue.id} ${pass}${dispatchesPerPass > 1 ? ` x${dispatchesPerPass}` : ''}`);
    },
    beginDispatch: (queue: Queue, pass: number, index: number) => calls.push(`dispatch ${queue.id} ${pass} ${index}`),
    endDispatch: (queue: Queue, pass: number, index: number) => calls.push(`dispatch-end ${queue.id} ${pass} ${index}`),
    endPass: (queue: Queue, pass: number) => {
      calls.push(`end ${queue.id} ${pass}`);
      if (pass === passCount) dispatch += 1;
    },
    lastResult: () => {
      if (failure) throw failure;
      const row = (index: number) => ({ 'gpu__time_duration.sum': 1000 * dispatch + index, 'dram__bytes_write.sum': 4096 });
      return { dispatch, values: row(0), dispatches: Array.from({ length: dispatchesPerPass }, (_, index) => row(index)) };
    },
    dispose: async () => void calls.push('dispose'),
  };
  const sessionOptions: unknown[] = [];
  const createSession = async (options: unknown) => {
    sessionOptions.push(options);
    return session;
  };
  const runtime = { driver: 'cuda', agents, profiler: { createSession } } as unknown as Runtime;
  const queue = (id: number) => ({ id, agent: agents[0] }) as unknown as Queue;
  return { runtime, calls, queue, sessionOptions };
}

describe('cuptiPasses', () => {
  it('needs the cuda driver', async () => {
    await using runtime = await openRuntime({ driver: 'host', host: { deviceMemoryBytes: 1 << 20, threads: 1 } });
    const error = await cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum'] }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(UnsupportedError);
    expect((error as Error).message).toMatch(/^\[replay\] \[cupti-passes\] CUPTI counters need the cuda driver, not host\./);
    await expect(cuptiPasses({ runtime: {} as Runtime, metrics: [] })).rejects.toBeInstanceOf(ArgumentError);
  });

  it("takes CUPTI's pass count, brackets each pass and collects the dispatch's values", async () => {
    const { runtime, calls, queue } = fakeCudaRuntime(3);
    const provider = await cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum', 'dram__bytes_write.sum'] });
    const first = queue(7);
    expect(provider.name).toBe('cupti(gpu__time_duration.sum,dram__bytes_write.sum)');
    expect(provider.passCount({ queue: first } as never)).toBe(3);
    for (const pass of [1, 2, 3]) {
      provider.beginPass(pass, first);
      provider.endPass(pass, first);
    }
    expect(calls).toEqual(['begin 7 1', 'end 7 1', 'begin 7 2', 'end 7 2', 'begin 7 3', 'end 7 3']);
    expect(provider.collect(first, [1, 2, 3])).toEqual({
      chip: 'GH100',
      passes: 3,
      metrics: { 'gpu__time_duration.sum': 1000, 'dram__bytes_write.sum': 4096 },
      units: { 'gpu__time_duration.sum': 'nanosecond', 'dram__bytes_write.sum': 'byte' },
    });
    expect(provider.collect(first, [1])).toMatchObject({ metrics: null, error: { code: 'incomplete' } });
    await provider.dispose();
    expect(calls.at(-1)).toBe('dispose');
  });

  it('runs each dispatch warmRuns times unprofiled before its passes and collects only the profiled passes', async () => {
    const { runtime, calls, queue } = fakeCudaRuntime(2);
    const provider = await cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum', 'dram__bytes_write.sum'], conditions: { warmRuns: 1 } });
    const first = queue(4);
    expect(provider.passCount({ queue: first } as never)).toBe(3);
    for (const pass of [1, 2, 3]) {
      provider.beginPass(pass, first, { dispatches: 2 });
      for (const index of [0, 1]) {
        provider.beginDispatch(pass, index, first);
        provider.endDispatch(pass, index, first);
      }
      provider.endPass(pass, first);
    }
    expect(calls.filter((call) => !call.startsWith('dispatch'))).toEqual(['begin 4 1 x2', 'end 4 1', 'begin 4 2 x2', 'end 4 2']);
    expect(calls.filter((call) => call.startsWith('dispatch ')).map((call) => call.split(' ')[2])).toEqual(['1', '1', '2', '2']);
    expect(provider.collectRange(first, [1, 2, 3], 2).map((each) => [each.passes, each.metrics?.['gpu__time_duration.sum']])).toEqual([[2, 1000], [2, 1001]]);
    expect(provider.collectRange(first, [1, 2], 2)[0]).toMatchObject({ metrics: null, error: { code: 'incomplete', message: expect.stringMatching(/^passes 2 of 2 did not complete/) } });
  });

  it('refuses conditions profileConditions refuses, before any session is made', async () => {
    const { runtime, sessionOptions } = fakeCudaRuntime(1);
    for (const warmRuns of [-1, 0.5, Number.NaN]) {
      await expect(cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum'], conditions: { warmRuns } })).rejects.toThrow(/^\[replay\] \[profile-conditions\] warmRuns is .*, not a whole number >= 0/);
    }
    await expect(cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum'], conditions: { l2Flush: 'copy' as never } })).rejects.toBeInstanceOf(ArgumentError);
    expect(sessionOptions).toEqual([]);
  });

  it('is disposed at the end of an await using block', async () => {
    const { runtime, calls } = fakeCudaRuntime(1);
    {
      await using provider = await cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum'] });
      expect(provider.name).toMatch(/^cupti/);
      expect(calls).not.toContain('dispose');
    }
    expect(calls).toContain('dispose');
  });

  it("passes the range and the conditions to the agents' sessions, and records the conditions it profiles under", async () => {
    const { runtime, sessionOptions } = fakeCudaRuntime(1);
    const chosen = await cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum'], range: 'dispatch', conditions: { cacheControl: 'none', l2Flush: 'read', instructionCache: 'keep', warmRuns: 2, samples: 3 } });
    const defaults = await cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum'] });
    expect(sessionOptions).toEqual([
      { agentId: 0, metrics: ['gpu__time_duration.sum'], range: 'dispatch', cacheControl: 'none', l2Flush: 'read', instructionCache: 'keep' },
      { agentId: 0, metrics: ['gpu__time_duration.sum'], cacheControl: 'all', l2Flush: 'write-discard', instructionCache: 'evict' },
    ]);
    expect(chosen.conditions).toEqual({ l2Flush: 'read', instructionCache: 'keep', cacheControl: 'none', warmRuns: 2, samples: 3 });
    expect(defaults.conditions).toEqual(defaultProfileConditions);
    expect(chosen.passCount({ queue: { agent: { id: 0 } } } as never)).toBe(3);
  });

  it('brackets every dispatch of a range and collects one value set per dispatch', async () => {
    const { runtime, calls, queue } = fakeCudaRuntime(2);
    const provider = await cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum', 'dram__bytes_write.sum'] });
    const first = queue(3);
    for (const pass of [1, 2]) {
      provider.beginPass(pass, first, { dispatches: 3 });
      for (const index of [0, 1, 2]) {
        provider.beginDispatch(pass, index, first);
        provider.endDispatch(pass, index, first);
      }
      provider.endPass(pass, first);
    }
    expect(calls.slice(0, 8)).toEqual(['begin 3 1 x3', 'dispatch 3 1 0', 'dispatch-end 3 1 0', 'dispatch 3 1 1', 'dispatch-end 3 1 1', 'dispatch 3 1 2', 'dispatch-end 3 1 2', 'end 3 1']);
    const collected = provider.collectRange(first, [1, 2], 3);
    expect(collected.map((each) => each.metrics?.['gpu__time_duration.sum'])).toEqual([1000, 1001, 1002]);
    expect(provider.collectRange(first, [1], 3)).toEqual(Array.from({ length: 3 }, () => expect.objectContaining({ metrics: null, error: expect.objectContaining({ code: 'incomplete' }) })));
    expect(provider.collectRange(first, [1, 2], 2)[1]).toMatchObject({ metrics: null, error: { code: 'range-count' } });
  });

  it('refuses overlapping windows on one agent and reports CUPTI failures as data', async () => {
    const failure = new DriverError({ packageName: 'native', component: 'profiler', driver: 'cuda', agentId: 0, operation: 'profiler-decode', code: 'CUPTI_ERROR_UNKNOWN', message: 'decode failed' });
    const { runtime, queue } = fakeCudaRuntime(1, failure);
    const provider = await cuptiPasses({ runtime, metrics: ['gpu__time_duration.sum'] });
    const [first, second] = [queue(1), queue(2)];
    provider.beginPass(1, first);
    expect(() => provider.beginPass(1, second)).toThrow(/queue 2 began a window while queue 1 of agent 0 is in one/);
    provider.endPass(1, first);
    expect(provider.collect(first, [1])).toMatchObject({ passes: 1, metrics: null, error: { code: 'CUPTI_ERROR_UNKNOWN' } });
    provider.beginPass(1, second);
  });
});
