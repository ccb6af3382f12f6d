// Just enough of CUDA C's device side, in plain C++, to run the driver's .cu kernels on the CPU
// for tests: each block runs its threads as fibers on the calling thread, so __syncthreads and
// warp shuffles are barriers between fibers, and `__shared__` variables are per-OS-thread statics
// (blocks of one thread run one after another). Not a simulator of timing or memory ordering.
#pragma once

#include <cstdint>
#include <cstring>

#include "fake-fibers.hpp"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static thread_local
#define threadIdx (::kreplay_fake::threadIndex())
#define blockIdx (::kreplay_fake::blockIndex())
#define blockDim (::kreplay_fake::blockDimension())
#define gridDim (::kreplay_fake::gridDimension())
#define KREPLAY_FAKE_CUDA 1

struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(16) ulonglong2 {
  unsigned long long x, y;
};

inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) {
  return {x, y, z, w};
}
inline float4 make_float4(float x, float y, float z, float w) {
  return {x, y, z, w};
}

inline void __syncthreads() {
  kreplay_fake::syncBlock();
}
inline void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __nanosleep(unsigned nanoseconds) {
  kreplay_fake::sleepNanoseconds(nanoseconds);
}

template <typename T>
inline T __shfl_xor_sync(unsigned, T value, unsigned offset) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof value);
  bits = kreplay_fake::shuffleXor(bits, offset);
  T result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

template <typename T>
inline T __shfl_sync(unsigned, T value, unsigned sourceLane) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof value);
  bits = kreplay_fake::shuffleFrom(bits, sourceLane);
  T result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

inline float __uint_as_float(unsigned bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}
inline unsigned __float_as_uint(float value) {
  unsigned bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
// Built with -ffp-contract=off: each operation rounds to nearest on its own.
inline float __fadd_rn(float left, float right) {
  return left + right;
}
inline float __fmul_rn(float left, float right) {
  return left * right;
}
inline float __fdiv_rn(float left, float right) {
  return left / right;
}

inline unsigned atomicAdd(unsigned* address, unsigned value) {
  return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
}
inline unsigned atomicExch(unsigned* address, unsigned value) {
  return __atomic_exchange_n(address, value, __ATOMIC_SEQ_CST);
}
inline unsigned atomicCAS(unsigned* address, unsigned expected, unsigned desired) {
  __atomic_compare_exchange_n(address, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expected;
}
inline unsigned long long atomicXor(unsigned long long* address, unsigned long long value) {
  return __atomic_fetch_xor(address, value, __ATOMIC_SEQ_CST);
}
inline float atomicAdd(float* address, float value) {
  auto* bits = reinterpret_cast<unsigned*>(address);
  unsigned old = __atomic_load_n(bits, __ATOMIC_SEQ_CST);
  while (!__atomic_compare_exchange_n(bits, &old, __float_as_uint(__uint_as_float(old) + value), false,
                                      __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
  }
  return __uint_as_float(old);
}
inline float atomicExch(float* address, float value) {
  return __uint_as_float(atomicExch(reinterpret_cast<unsigned*>(address), __float_as_uint(value)));
}
