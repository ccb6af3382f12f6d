// The built-in kernels every driver provides, with the reference semantics of runtime-types.ts
// (BuiltinKernels), bit for bit, on host-addressable memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/thread-pool.hpp"

namespace kreplay {

/** The numbering is shared with builtin-kernels.ts. */
enum class BuiltinKernel : int { Fill = 0, ScatterWrite = 1, Triad = 2, Stencil = 3, Accumulate = 4 };

/** How many arguments (one uint64 word each, in declared order) a kernel takes; 0 for an unknown id. */
std::size_t builtinKernelArgumentCount(int kernel);

/** Runs a kernel on arguments in declared order (floats as their bit patterns). */
void runBuiltinKernel(ThreadPool& pool, BuiltinKernel kernel, const std::vector<std::uint64_t>& arguments);

void fillKernel(ThreadPool& pool, std::uint64_t destination, std::uint64_t bytes, std::uint32_t value);
void scatterWriteKernel(ThreadPool& pool, std::uint64_t buffer, std::uint64_t bytes, std::uint64_t pageBytes,
                        double fraction, std::uint64_t seed, std::uint64_t source, std::uint64_t sourceBytes);
void triadKernel(ThreadPool& pool, std::uint64_t a, std::uint64_t b, std::uint64_t c, float scalar,
                 std::uint64_t count);
void stencilKernel(ThreadPool& pool, std::uint64_t buffer, std::uint64_t count);
void accumulateKernel(ThreadPool& pool, std::uint64_t input, std::uint64_t count, std::uint64_t output);

}  // namespace kreplay
