// Shared by the kreplay AMDGPU kernels: fixed-width types, the dispatch geometry, work-group
// barriers and reductions, loads that tolerate any alignment, and the page hash of API.md.
// OpenCL C compiled with clang for amdgcn-amd-amdhsa without any device library: only clang
// builtins are used, so no ROCm installation is needed to build the code objects.
#pragma once
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// Every float operation is rounded on its own, like the host driver (the build also passes
// -ffp-contract=off and -cl-fp32-correctly-rounded-divide-sqrt).
#pragma OPENCL FP_CONTRACT OFF

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long u64;

// Every kernel runs in work-groups of GROUP_SIZE work-items along x; the driver dispatches a grid
// that is a whole number of work-groups and loops over the work ("grid-stride").
#define GROUP_SIZE 256
// KERNEL and GROUP_SHARED (work-group shared arrays) are predefined by the CPU emulation of the
// kernels that the driver's tests run (src/drivers/hsa/test/kernel-emulator.cpp).
#ifndef KERNEL
#define KERNEL __kernel __attribute__((reqd_work_group_size(GROUP_SIZE, 1, 1)))
#endif
#ifndef GROUP_SHARED
#define GROUP_SHARED __local
#endif

static inline u32 local_id(void) {
  return __builtin_amdgcn_workitem_id_x();
}

static inline u32 group_id(void) {
  return __builtin_amdgcn_workgroup_id_x();
}

/** grid_size_x / GROUP_SIZE, read from the AQL kernel dispatch packet (grid_size_x at byte 12). */
static inline u32 group_count(void) {
  __constant u8* packet = (__constant u8*)__builtin_amdgcn_dispatch_ptr();
  return *(__constant u32*)(packet + 12) / GROUP_SIZE;
}

static inline u64 global_id(void) {
  return (u64)group_id() * GROUP_SIZE + local_id();
}

static inline u64 global_count(void) {
  return (u64)group_count() * GROUP_SIZE;
}

/** A work-group barrier that also orders local and global memory (what OpenCL's barrier() does). */
static inline void group_barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

/** The sum (mod 2^64) of every work-item's value, returned to all of them. */
static inline u64 group_sum_u64(u64 value, __local u64* scratch) {
  scratch[local_id()] = value;
  group_barrier();
  for (u32 stride = GROUP_SIZE / 2; stride > 0; stride /= 2) {
    if (local_id() < stride) scratch[local_id()] += scratch[local_id() + stride];
    group_barrier();
  }
  const u64 total = scratch[0];
  group_barrier();
  return total;
}

/** The XOR of every work-item's value, returned to all of them. */
static inline u64 group_xor_u64(u64 value, __local u64* scratch) {
  scratch[local_id()] = value;
  group_barrier();
  for (u32 stride = GROUP_SIZE / 2; stride > 0; stride /= 2) {
    if (local_id() < stride) scratch[local_id()] ^= scratch[local_id() + stride];
    group_barrier();
  }
  const u64 total = scratch[0];
  group_barrier();
  return total;
}

/** The little-endian uint64 at p, whatever p's alignment. */
static inline u64 load_u64(const __global u8* p) {
  if (((u64)p & 7) == 0) return *(const __global u64*)p;
  u64 word = 0;
  for (u32 byte = 0; byte < 8; ++byte) word |= (u64)p[byte] << (8 * byte);
  return word;
}

/** The first `bytes` (< 8) bytes at p as a little-endian uint64, zero-padded. */
static inline u64 load_partial_u64(const __global u8* p, u64 bytes) {
  u64 word = 0;
  for (u32 byte = 0; byte < bytes; ++byte) word |= (u64)p[byte] << (8 * byte);
  return word;
}

static inline void store_u64(__global u8* p, u64 word) {
  if (((u64)p & 7) == 0) {
    *(__global u64*)p = word;
    return;
  }
  for (u32 byte = 0; byte < 8; ++byte) p[byte] = (u8)(word >> (8 * byte));
}

static inline u32 load_u32(const __global u8* p) {
  if (((u64)p & 3) == 0) return *(const __global u32*)p;
  u32 word = 0;
  for (u32 byte = 0; byte < 4; ++byte) word |= (u32)p[byte] << (8 * byte);
  return word;
}

static inline void store_u32(__global u8* p, u32 word) {
  if (((u64)p & 3) == 0) {
    *(__global u32*)p = word;
    return;
  }
  for (u32 byte = 0; byte < 4; ++byte) p[byte] = (u8)(word >> (8 * byte));
}

static inline float load_f32(const __global u8* p) {
  return __builtin_astype(load_u32(p), float);
}

static inline void store_f32(__global u8* p, float value) {
  store_u32(p, __builtin_astype(value, u32));
}

/** The splitmix64 finalizer (mix64 of API.md). */
static inline u64 mix64(u64 x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9UL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBUL;
  x ^= x >> 31;
  return x;
}

#define WORD_MULTIPLIER 0x9E3779B97F4A7C15UL
#define LENGTH_MULTIPLIER 0xD6E8FEB86659FD93UL

/** mix64(w_i + (i + 1) * K) for word i of a page of `bytes` bytes (the last word zero-padded). */
static inline u64 page_word_term(const __global u8* page, u64 bytes, u64 word) {
  const u64 value = 8 * word + 8 <= bytes ? load_u64(page + 8 * word) : load_partial_u64(page + 8 * word, bytes - 8 * word);
  return mix64(value + (word + 1) * WORD_MULTIPLIER);
}

static inline u64 finish_page_hash(u64 sum, u64 bytes) {
  return mix64(sum ^ (bytes * LENGTH_MULTIPLIER));
}

/** The hash of one page computed by one work-item. */
static inline u64 page_hash_serial(const __global u8* page, u64 bytes) {
  u64 sum = 0;
  for (u64 word = 0; word < (bytes + 7) / 8; ++word) sum += page_word_term(page, bytes, word);
  return finish_page_hash(sum, bytes);
}

/** The hash of one page computed by the whole work-group, returned to every work-item. */
static inline u64 page_hash_group(const __global u8* page, u64 bytes, __local u64* scratch) {
  u64 sum = 0;
  for (u64 word = local_id(); word < (bytes + 7) / 8; word += GROUP_SIZE) sum += page_word_term(page, bytes, word);
  return finish_page_hash(group_sum_u64(sum, scratch), bytes);
}

/** Copies `bytes` bytes with the whole work-group (the ranges do not overlap). */
static inline void group_copy(__global u8* destination, const __global u8* source, u64 bytes) {
  if ((((u64)destination | (u64)source) & 7) == 0) {
    const u64 words = bytes / 8;
    for (u64 word = local_id(); word < words; word += GROUP_SIZE)
      ((__global u64*)destination)[word] = ((const __global u64*)source)[word];
    for (u64 byte = 8 * words + local_id(); byte < bytes; byte += GROUP_SIZE) destination[byte] = source[byte];
    return;
  }
  for (u64 byte = local_id(); byte < bytes; byte += GROUP_SIZE) destination[byte] = source[byte];
}
