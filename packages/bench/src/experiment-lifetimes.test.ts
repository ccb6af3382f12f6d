import { describe, expect, it } from 'vitest';
import { ArgumentError, openRuntime, type Runtime } from '@kreplay/native';
import type { VerifyMode } from '@kreplay/replay';
import { runReplayExperiment } from './replay-experiment.js';

/** `runtime`, counting the memory-event listeners (a tracker's subscription) still attached. */
function countingListeners(runtime: Runtime): { readonly runtime: Runtime; readonly listening: () => number } {
  let listening = 0;
  const counted = new Proxy(runtime, {
    get(target, property) {
      if (property === 'onMemoryEvent') {
        return (listener: Parameters<Runtime['onMemoryEvent']>[0]) => {
          listening += 1;
          const off = target.onMemoryEvent(listener);
          let subscribed = true;
          return () => {
            if (subscribed) listening -= 1;
            subscribed = false;
            off();
          };
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { runtime: counted, listening: () => listening };
}

describe('runReplayExperiment releases what it creates (host driver)', () => {
  it('releases its tracker, staging and strategy when the engine cannot be made', async () => {
    await using opened = await openRuntime({ driver: 'host' });
    const { runtime, listening } = countingListeners(opened);
    const agent = opened.agents[0]!;
    const freeBefore = agent.memoryInfo().freeBytes;
    const options = { strategy: 'dirty-pages', tier: 'device', footprintBytes: 1 << 20, writeFraction: 0.25, dispatches: 2, passes: 2, verify: 'bogus' as VerifyMode } as const;
    await expect(runReplayExperiment(runtime, options)).rejects.toThrow(ArgumentError);
    expect(listening()).toBe(0);
    await agent.synchronize();
    expect(agent.memoryInfo().freeBytes).toBe(freeBefore);
  });

});
