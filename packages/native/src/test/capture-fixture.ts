/**
 * The capture fixture kernels of the tests (test/capture-fixtures/; the fake libcuda runs them too):
 * `kreplay_capture_fixture_axpy(float* y, const float* x, float a, unsigned n)` (axpy.cu), and
 * `kreplay_capture_fixture_block_sums` (block-sums.cu), which writes host memory.
 */

/** The axpy fixture's parameter buffer in the C ABI layout: y at 0, x at 8, a at 16, n at 20; 24 bytes. */
export function captureFixtureAxpyParameters(y: number, x: number, a: number, n: number): Uint8Array {
  const view = new DataView(new ArrayBuffer(24));
  view.setBigUint64(0, BigInt(y), true);
  view.setBigUint64(8, BigInt(x), true);
  view.setFloat32(16, a, true);
  view.setUint32(20, n, true);
  return new Uint8Array(view.buffer);
}

/**
 * The parameter buffer of the host-memory fixture kernel, `kreplay_capture_fixture_block_sums(const
 * float* a, const float* b, float* sums, unsigned n)` (test/capture-fixtures/block-sums.cu): a at 0,
 * b at 8, sums at 16, n at 24; 28 bytes, where n ends (CUDA refuses a longer buffer).
 */
export function captureFixtureBlockSumsParameters(a: number, b: number, sums: number, n: number): Uint8Array {
  const view = new DataView(new ArrayBuffer(28));
  view.setBigUint64(0, BigInt(a), true);
  view.setBigUint64(8, BigInt(b), true);
  view.setBigUint64(16, BigInt(sums), true);
  view.setUint32(24, n, true);
  return new Uint8Array(view.buffer);
}

/** The threads of a block of the block-sums fixture: it must be launched with blocks of this many. */
export const captureFixtureBlockThreads = 256;

/**
 * What the block-sums fixture stores in `sums`, one float per block of 256 elements, rounded as the
 * kernel rounds: each a[i] + b[i] (0 past the end), then a tree halving the stride.
 */
export function captureFixtureBlockSums(a: Float32Array, b: Float32Array): Float32Array {
  const blocks = Math.ceil(a.length / captureFixtureBlockThreads);
  const sums = new Float32Array(blocks);
  const partial = new Float32Array(captureFixtureBlockThreads);
  for (let block = 0; block < blocks; block += 1) {
    for (let thread = 0; thread < captureFixtureBlockThreads; thread += 1) {
      const index = block * captureFixtureBlockThreads + thread;
      partial[thread] = index < a.length ? Math.fround(a[index]! + b[index]!) : 0;
    }
    for (let stride = captureFixtureBlockThreads >> 1; stride > 0; stride >>= 1) {
      for (let thread = 0; thread < stride; thread += 1) partial[thread] = Math.fround(partial[thread]! + partial[thread + stride]!);
    }
    sums[block] = partial[0]!;
  }
  return sums;
}
