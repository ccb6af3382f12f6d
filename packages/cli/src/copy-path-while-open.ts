/**
 * Sets KREPLAY_CUDA_COPY_PATH, which the cuda driver reads when it opens, unless the user set it,
 * and takes it away again when disposed.
 */
export function copyPathWhileOpen(path: 'api' | 'kernel'): Disposable {
  if (process.env['KREPLAY_CUDA_COPY_PATH'] !== undefined) return { [Symbol.dispose]() {} };
  process.env['KREPLAY_CUDA_COPY_PATH'] = path;
  return {
    [Symbol.dispose]() {
      delete process.env['KREPLAY_CUDA_COPY_PATH'];
    },
  };
}
