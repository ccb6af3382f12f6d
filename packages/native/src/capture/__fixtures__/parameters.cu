// Kernels whose parameters cover what the module-image reader must list: scalars of every size,
// pointers, a struct passed by value with padding, a lambda closure through a functor template, and
// many parameters; plus __device__ and __constant__ globals. module-image.test.ts states, for each
// kernel, the offsets and sizes this source implies.
#include <cstdint>

struct Padded {
  char tag;        // offset 0, then 7 bytes of padding
  double value;    // offset 8
  short count;     // offset 16, then 6 bytes of padding: sizeof 24, alignment 8
};

__device__ int deviceCounter;
__device__ float deviceTable[100];
__device__ long long deviceInitialized = 7;
__constant__ double constantCoefficients[16];

extern "C" __global__ void scalars(char c, short s, int i, long long l, float f, double d, std::uint8_t* out) {
  out[0] = c + s + i + l + f + d + deviceCounter + deviceTable[3] + deviceInitialized + constantCoefficients[1];
}

extern "C" __global__ void pointers(const float* in, float* out, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < n) out[index] = in[index];
}

extern "C" __global__ void padded_struct(Padded p, int after, double* out) {
  out[0] = p.tag + p.value + p.count + after;
}

extern "C" __global__ void many_parameters(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7,
                                           int a8, int a9, int a10, int a11, int a12, int a13, int a14,
                                           int a15, int a16, int a17, int a18, int a19, int* out) {
  out[0] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 + a16 +
           a17 + a18 + a19;
}

template <class Functor>
__global__ void apply(int n, Functor functor) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < n) functor(index);
}

// The lambda's closure holds a pointer, a float and a pointer: 24 bytes, alignment 8.
void launchClosure(float* out, float scale, const float* in, int n) {
  auto body = [=] __device__(int index) { out[index] = scale * in[index]; };
  apply<<<1, 1>>>(n, body);
}
