// A copy plan in one launch: a table of chunks (segments split to at most a few hundred KiB), one
// group of threads per chunk.
#include "kernels-cuda/device-common.cuh"

#define KREPLAY_COPY_CHUNKS(name, G)                                                            \
  extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)                           \
      name(const KreplayChunk* chunks, uint64_t chunkCount, const KreplayQueueState* state) {   \
    using namespace kreplay_device;                                                             \
    if (skipped(state)) return;                                                                 \
    for (uint64_t chunk = Group<G>::first(); chunk < chunkCount; chunk += Group<G>::stride()) { \
      const KreplayChunk piece = chunks[chunk];                                                 \
      copyBytes<G>(writableBytesAt(piece.destination), bytesAt(piece.source), piece.bytes,      \
                   Group<G>::lane());                                                           \
    }                                                                                           \
  }

KREPLAY_COPY_CHUNKS(kreplay_copy_chunks_warp, 32)
KREPLAY_COPY_CHUNKS(kreplay_copy_chunks_block, KREPLAY_BLOCK_THREADS)
