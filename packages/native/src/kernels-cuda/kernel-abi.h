// The data the cuda driver (C++, g++) and its device kernels (CUDA C, nvcc) exchange: plain structs
// of fixed-width fields, laid out the same by both compilers. Kernels are launched by these names.
#pragma once

#include <stdint.h>

/** Threads of every built-in kernel's block. */
#define KREPLAY_BLOCK_THREADS 256
/** The most pages a page-list copy may have for one launch to check and copy it (each block reads the whole list). */
#define KREPLAY_FUSED_CHECK_PAGES 4096
/**
 * Bytes each thread copies of one chunk in a page-list copy that stores no hashes: its pages are
 * split in chunks of this many bytes per thread of a group, so a short list still keeps every
 * multiprocessor busy.
 */
#define KREPLAY_PAGE_LIST_CHUNK_BYTES_PER_THREAD 64
/** Floats of one stencil tile (one block's share; its neighbours' halo values are saved first). */
#define KREPLAY_STENCIL_TILE 2048

/** What a kernel found wrong on the device (KreplayQueueState.errorCode). */
#define KREPLAY_ERROR_NONE 0u
#define KREPLAY_ERROR_PAGE_COUNT 1u /* a page list's count exceeds the pages of the segments */
#define KREPLAY_ERROR_PAGE_INDEX 2u /* a page list holds an index that is not below the page count */

/** One span of a paged operation: a range (hashing) or a copy segment; page numbers continue across spans. */
struct KreplaySpan {
  uint64_t source;
  uint64_t destination;
  uint64_t bytes;
  uint64_t firstPage;
};

/** One piece of a copy plan. */
struct KreplayChunk {
  uint64_t source;
  uint64_t destination;
  uint64_t bytes;
};

/**
 * Per-queue device memory: the first failure found on the device (every built-in kernel does
 * nothing while errorCode is set, which is how later work is skipped), and counters that a
 * kernel's last block reads and resets to zero.
 */
struct KreplayQueueState {
  uint32_t errorCode;
  uint32_t pageCounter;
  uint32_t blocksDone;
  float floatSum;
  int64_t workIndex;
  uint64_t errorValue;
  uint64_t errorPosition;
  uint64_t pageCount;
  uint64_t digest;
};

/** The failure part of KreplayQueueState, copied to host memory at a synchronize marker. */
struct KreplayStateReport {
  uint32_t errorCode;
  uint32_t reserved;
  int64_t workIndex;
  uint64_t errorValue;
  uint64_t errorPosition;
  uint64_t pageCount;
};
