// Copy plans on host-addressable memory: segments split by bytes across the thread pool.
#pragma once

#include <vector>

#include "core/thread-pool.hpp"
#include "core/types.hpp"

namespace kreplay {

/**
 * Copies every segment (memmove semantics inside a segment). Segments run concurrently, so the
 * destination of one must not overlap another segment.
 */
void copySegments(ThreadPool& pool, const std::vector<Segment>& segments);

}  // namespace kreplay
