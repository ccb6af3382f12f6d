import { afterEach, describe, expect, it } from 'vitest';
import { copyPathWhileOpen } from './copy-path-while-open.js';

describe('copyPathWhileOpen', () => {
  const before = process.env['KREPLAY_CUDA_COPY_PATH'];
  afterEach(() => {
    if (before === undefined) delete process.env['KREPLAY_CUDA_COPY_PATH'];
    else process.env['KREPLAY_CUDA_COPY_PATH'] = before;
  });

  it('sets the copy path while in scope and takes it away after', () => {
    delete process.env['KREPLAY_CUDA_COPY_PATH'];
    {
      using _path = copyPathWhileOpen('api');
      expect(process.env['KREPLAY_CUDA_COPY_PATH']).toBe('api');
    }
    expect(process.env['KREPLAY_CUDA_COPY_PATH']).toBeUndefined();
  });

  it("keeps the user's own setting", () => {
    process.env['KREPLAY_CUDA_COPY_PATH'] = 'kernel';
    {
      using _path = copyPathWhileOpen('api');
      expect(process.env['KREPLAY_CUDA_COPY_PATH']).toBe('kernel');
    }
    expect(process.env['KREPLAY_CUDA_COPY_PATH']).toBe('kernel');
  });
});
