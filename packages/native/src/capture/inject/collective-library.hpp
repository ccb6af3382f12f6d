// What counts as a kernel of a collective, never replayed alone: a kernel named as NCCL names its
// collective kernels (ncclDevKernel_*, ncclKernel_*), or any kernel whose code was loaded from a
// collective library's shared object (libnccl*, librccl*), since NCCL and RCCL also launch kernels
// with other names (at one rank an AllReduce AVG runs `oneRankReduce`; other versions name theirs
// otherwise). The shared object holding a module image is the one dladdr() finds at its address.
// A launch made by a collective library's code counts too, wherever its image came from
// (collective-caller.hpp).
#pragma once

#include <optional>
#include <string>

namespace kreplay::capture {

/** Whether a kernel's name is one of NCCL's collective kernels. */
bool isCollectiveKernel(const std::string& function);

/** The file name of `path` when it names a collective library (its name starts libnccl or librccl), else nothing. */
std::optional<std::string> collectiveLibraryName(const std::string& path);

/** The file name of the collective library whose loaded file holds `address` (dladdr), else nothing (null too). */
std::optional<std::string> collectiveLibraryHolding(const void* address);

/**
 * Why a launch of `function`, whose code came from `library` (empty: not a collective library's),
 * made by `caller`'s code (the collective library on the launching thread's stack, or empty), takes
 * part in a collective, said for the log; nothing when it does not.
 */
std::optional<std::string> whyCollective(const std::string& function, const std::string& library,
                                         const std::string& caller = {});

}  // namespace kreplay::capture
