// The kernel the capture tests capture and replay: y[i] = a * x[i] + y[i] for i < n, one thread
// per element, rounded as two operations (no fused multiply-add) so that every device and the
// TypeScript reference agree bit for bit. Compiled for the CPU into the fake libcuda
// (test/fake-cuda/fake-kernels.cpp), and to PTX (test/gpu/kernels/capture-fixture-axpy.ptx) or a
// cubin by nvcc. Its parameter buffer (C ABI): y at 0, x at 8, a at 16, n at 20; 24 bytes.
// The globals are there for runtime.kernelGlobal (a capture records a module's globals).

extern "C" {

__device__ unsigned kreplay_capture_fixture_launches;
__device__ float kreplay_capture_fixture_table[64];

__global__ void kreplay_capture_fixture_axpy(float* y, const float* x, float a, unsigned n) {
  const unsigned long long index = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index < n) y[index] = __fadd_rn(__fmul_rn(a, x[index]), y[index]);
}

}  // extern "C"
