/**
 * The capture fixture kernel of the tests, `kreplay_capture_fixture_axpy(float* y, const float* x,
 * float a, unsigned n)` (test/capture-fixtures/axpy.cu; the fake libcuda runs it too).
 */

/** Its parameter buffer in the C ABI layout: y at 0, x at 8, a at 16, n at 20; 24 bytes. */
export function captureFixtureAxpyParameters(y: number, x: number, a: number, n: number): Uint8Array {
  const view = new DataView(new ArrayBuffer(24));
  view.setBigUint64(0, BigInt(y), true);
  view.setBigUint64(8, BigInt(x), true);
  view.setFloat32(16, a, true);
  view.setUint32(20, n, true);
  return new Uint8Array(view.buffer);
}
