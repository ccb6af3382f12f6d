// The raw parameter buffer of a launch: `kernelParams` (one pointer per parameter) laid out at the
// offsets the cubin's metadata gives, or the buffer an `extra` array names
// (CU_LAUNCH_PARAM_BUFFER_POINTER / CU_LAUNCH_PARAM_BUFFER_SIZE).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "capture/capture-writer.hpp"
#include "capture/module-image.hpp"

namespace kreplay::capture {

/** The launch's parameters cannot be read (the message says why). */
struct ParameterBufferError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ParameterBuffer {
  std::vector<std::uint8_t> bytes;
  std::vector<ParameterSlot> slots;
};

/** The kernel's slots, from its metadata. */
std::vector<ParameterSlot> parameterSlots(const KernelInfo& kernel);

/** Copies each parameter `kernelParams[i]` points at to its slot. kernelParams may be null only for a kernel
 * without parameters. */
ParameterBuffer layOutKernelParams(const KernelInfo& kernel, void* const* kernelParams);

/**
 * The buffer an `extra` array names, or nothing when it names none. Throws ParameterBufferError when
 * it names a pointer without a size or the other way round, or holds a key this reader does not know.
 */
std::optional<std::vector<std::uint8_t>> extraParameterBuffer(void* const* extra);

/** The 8-byte-aligned 64-bit words of a buffer (where a pointer or an object handle may sit). */
std::vector<std::uint64_t> alignedWords(const std::vector<std::uint8_t>& bytes);

}  // namespace kreplay::capture
