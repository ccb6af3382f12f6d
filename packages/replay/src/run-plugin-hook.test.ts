import { describe, expect, it } from 'vitest';
import { KreplayError } from '@kreplay/native';
import type { SnapshotStrategy } from '@kreplay/snapshot';
import { fixedPasses } from './fixed-passes.js';
import { passProviderSpecificationVersion, type PassProvider } from './pass-provider.js';
import { ReplayPluginError } from './replay-plugin-error.js';
import { runPluginHook } from './run-plugin-hook.js';
import { fakeRequest, fakeSetup } from './test-support/fake-setup.js';
import { testStrategy } from './test-support/test-strategy.js';

describe('runPluginHook', () => {
  it('returns what the hook returns', () => {
    expect(runPluginHook({ kind: 'strategy', name: 's' }, 'prepare', () => 42)).toBe(42);
  });

  it('wraps what a hook throws with the plug-in and the hook, keeping the cause', () => {
    const cause = new Error('boom');
    let caught: unknown;
    try {
      runPluginHook({ kind: 'pass provider', name: 'counters' }, 'beginPass', () => {
        throw cause;
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ReplayPluginError);
    expect(caught).toBeInstanceOf(KreplayError);
    const error = caught as ReplayPluginError;
    expect(error).toMatchObject({ pluginKind: 'pass provider', pluginName: 'counters', hook: 'beginPass', cause });
    expect(error.message).toMatch(/^\[replay\] \[pass provider\] the pass provider "counters" failed in beginPass\(\): boom\. Fix/);
  });

  it('refuses a hook that returns a Promise', () => {
    expect(() => runPluginHook({ kind: 'strategy', name: 's' }, 'prepare', () => Promise.resolve(1))).toThrow(/returned a Promise/);
  });
});

describe('plug-in errors in a dispatch (fake runtime)', () => {
  it('rejects with the strategy error when prepare throws, leaving nothing held', async () => {
    const setup = fakeSetup();
    const strategy: SnapshotStrategy = { ...testStrategy(), name: 'broken', prepare: () => { throw new Error('no plan'); } };
    const engine = setup.engine({ strategy });
    const buffer = setup.buffer(10);
    const queue = setup.queue();
    await expect(engine.dispatch(fakeRequest(queue, 'increment', { buffer: buffer.address, bytes: 10 }))).rejects.toMatchObject({
      name: 'ReplayPluginError',
      pluginName: 'broken',
      hook: 'prepare',
    });
    const next = await setup.engine().dispatch(fakeRequest(queue, 'increment', { buffer: buffer.address, bytes: 10 }));
    expect(next.replayed).toBe(true);
  });

  it('rejects with the provider error when beginPass throws, after draining the queue and releasing staging', async () => {
    const setup = fakeSetup();
    const strategy = testStrategy();
    const passes: PassProvider = {
      specificationVersion: passProviderSpecificationVersion,
      name: 'flaky',
      passCount: () => 3,
      beginPass: (pass) => {
        if (pass === 2) throw new Error('counter unavailable');
      },
      endPass() {},
    };
    const engine = setup.engine({ strategy, passes });
    const buffer = setup.buffer(10);
    await expect(engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 10 }))).rejects.toThrow(
      /\[replay\] \[pass provider\] the pass provider "flaky" failed in beginPass\(\): counter unavailable/,
    );
    expect(strategy.calls.release).toBe(1);
    expect(setup.staging.usage().leasedBytes).toBe(0);
  });

  it('wraps an invalid pass count as the provider error', async () => {
    const setup = fakeSetup();
    const engine = setup.engine({ passes: { ...fixedPasses(2), passCount: () => 0 } });
    const buffer = setup.buffer(10);
    await expect(engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 10 }))).rejects.toMatchObject({
      hook: 'passCount',
    });
  });
});
