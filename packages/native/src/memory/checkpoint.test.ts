import { describe, expect, it } from 'vitest';
import { openRuntime } from '../runtime/open-runtime.js';

describe('runtime.checkpoint', () => {
  it('is absent on the host driver', async () => {
    await using runtime = await openRuntime({ driver: 'host', host: { deviceMemoryBytes: 1 << 20, threads: 1 } });
    expect(runtime.checkpoint).toBeUndefined();
  });
});
