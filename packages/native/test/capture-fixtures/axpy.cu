// The capture fixture kernel (issue 16 contract): y[i] = a * x[i] + y[i]. Its parameter buffer has
// the C ABI layout: y at 0, x at 8, a at 16, n at 20; 24 bytes. The capture tests build it with nvcc
// for the GPU; the fake libcuda compiles the same signature for the CPU.
extern "C" __global__ void kreplay_capture_fixture_axpy(float* y, const float* x, float a, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
