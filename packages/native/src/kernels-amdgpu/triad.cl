// triad(a, b, c, scalar, count): float32 a[i] = b[i] + scalar * c[i], the product and the sum each
// rounded to float32 (no FMA), like the host driver's triadKernel.
#include "common.h"

KERNEL void kreplay_triad(__global float* a, const __global float* b, const __global float* c, float scalar,
                          u64 count) {
  for (u64 index = global_id(); index < count; index += global_count()) {
    const float product = scalar * load_f32((const __global u8*)(c + index));
    const float result = load_f32((const __global u8*)(b + index)) + product;
    store_f32((__global u8*)(a + index), result);
  }
}
