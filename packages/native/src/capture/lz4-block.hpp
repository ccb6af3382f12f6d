// Decompression of one LZ4 block (the raw block format, no frame): how a fatbin built with
// `--compress-mode=speed` stores its cubins. Bounds-checked; malformed input is a ModuleImageError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kreplay::capture {

/** The `outputBytes` bytes that the LZ4 block `[data, data + size)` encodes. */
std::vector<std::uint8_t> decompressLz4Block(const std::uint8_t* data, std::size_t size,
                                             std::size_t outputBytes);

}  // namespace kreplay::capture
