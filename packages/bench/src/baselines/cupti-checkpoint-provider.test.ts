import type { Checkpoints, Runtime } from '@kreplay/native';
import { describe, expect, it } from 'vitest';
import { cuptiCheckpointProvider } from './cupti-checkpoint-provider.js';

// Only what the provider reads of a runtime: its driver and `runtime.checkpoint` of @kreplay/native.
const runtimeWith = (driver: string, checkpoint: Pick<Checkpoints, 'unavailableReason' | 'open'> | undefined) => ({ driver, checkpoint }) as unknown as Runtime;

describe('cuptiCheckpointProvider', () => {
  const provider = cuptiCheckpointProvider();
  const open = () => Promise.reject(new Error('not opened in this test'));

  it("is available on a cuda runtime whose runtime.checkpoint can take checkpoints", () => {
    expect(provider.unavailableReason(runtimeWith('cuda', { unavailableReason: () => null, open }))).toBeNull();
  });

  it("gives runtime.checkpoint's own reason when CUPTI's library is missing", () => {
    const reason = 'libcheckpoint.so was not found (searched /usr/local/cuda/lib64)';
    expect(provider.unavailableReason(runtimeWith('cuda', { unavailableReason: () => reason, open }))).toBe(reason);
  });

  it('says why on other drivers and on a cuda runtime without checkpoints', () => {
    expect(provider.unavailableReason(runtimeWith('host', undefined))).toMatch(/not available on the host driver/);
    expect(provider.unavailableReason(runtimeWith('cuda', undefined))).toMatch(/offers no checkpoint capability/);
  });
});
