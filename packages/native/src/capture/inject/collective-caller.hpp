// Launches made by a collective library's code (NCCL's libnccl*, RCCL's librccl*), never replayed
// alone, whatever the kernel's name and wherever its module image came from: NCCL links the CUDA
// runtime statically, and at one rank on an H100 (PyTorch 2.11, NCCL 2.28.9) an AllReduce AVG ran its
// `oneRankReduce` from a module whose image did not reach the module callbacks as an address inside
// libnccl's file. What a launch cannot hide is its caller: the collective library's own code is on the
// launching thread's stack (below the driver's frames, which the callback sees first).
//
// Cost: while no collective library is loaded, a launch costs one dl_iterate_phdr call that stops at
// the first object (the loader's load and unload counters, which say whether the set of loaded
// objects changed); the executable ranges are read again only when it did. Only while a collective
// library is loaded does each launch take a backtrace of its thread (up to kCallerFrames frames).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kreplay::capture {

/** An executable segment of a loaded shared object: [begin, end) and the object's file name. */
struct CodeRange {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  std::string library;
};

/** How many frames of the launching thread's stack are looked at. */
constexpr int kCallerFrames = 64;

/**
 * The library of the range that holds one of `returnAddresses`, else nothing. A return address
 * follows its call, which may be the last instruction of a range: the byte before it is matched.
 */
std::optional<std::string> libraryHoldingCaller(const std::vector<CodeRange>& ranges,
                                                const std::vector<std::uintptr_t>& returnAddresses);

/**
 * The executable segments of the loaded objects for which `pick(path)` gives a name (the main
 * program's path is empty). `pick` is called with the loader's lock held: it must not load anything.
 */
std::vector<CodeRange> executableRanges(std::optional<std::string> (*pick)(const std::string& path));

/** The return addresses of the calling thread's stack, innermost first, at most `frames`. */
std::vector<std::uintptr_t> callerReturnAddresses(int frames);

/**
 * The collective library (collectiveLibraryName: libnccl*, librccl*) whose code is on the calling
 * thread's stack, else nothing. Takes no backtrace while no collective library is loaded. Thread-safe.
 */
std::optional<std::string> collectiveCaller();

}  // namespace kreplay::capture
