// accumulate(input, count, output): float32 sum of the input into output[0], deliberately in an
// order that changes from run to run, so the bits are NOT deterministic: the elements are taken from
// a rotation the driver draws for each launch, summed per work-item, then in a work-group tree, and
// the work-groups' sums are added with float atomics in arrival order. The driver zeroes output[0]
// first.
#include "common.h"

static inline void atomic_add_f32(__global float* target, float value) {
  __global u32* bits = (__global u32*)target;
  u32 expected = __scoped_atomic_load_n(bits, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  for (;;) {
    const u32 desired = __builtin_astype(__builtin_astype(expected, float) + value, u32);
    if (__scoped_atomic_compare_exchange_n(bits, &expected, desired, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                           __MEMORY_SCOPE_DEVICE))
      return;
  }
}

KERNEL void kreplay_accumulate(const __global float* input, u64 count, __global float* output, u64 rotation) {
  GROUP_SHARED float partial[GROUP_SIZE];
  float sum = 0.0f;
  for (u64 position = global_id(); position < count; position += global_count()) {
    u64 index = position + rotation;  // rotation < count
    if (index >= count) index -= count;
    sum += load_f32((const __global u8*)(input + index));
  }
  partial[local_id()] = sum;
  group_barrier();
  for (u32 stride = GROUP_SIZE / 2; stride > 0; stride /= 2) {
    if (local_id() < stride) partial[local_id()] += partial[local_id() + stride];
    group_barrier();
  }
  if (local_id() == 0) atomic_add_f32(output, partial[0]);
}
