#include "capture/lz4-block.hpp"

#include <string>

#include "capture/byte-reader.hpp"

namespace kreplay::capture {

namespace {

/** A length of 15 continues in the following bytes, each added, until one is not 255. */
std::size_t extendedLength(const std::uint8_t* data, std::size_t size, std::size_t& at, std::size_t length) {
  if (length != 15) return length;
  for (;;) {
    if (at >= size) throw ModuleImageError("LZ4 block ends inside a length");
    const std::uint8_t more = data[at++];
    length += more;
    if (more != 255) return length;
  }
}

}  // namespace

std::vector<std::uint8_t> decompressLz4Block(const std::uint8_t* data, std::size_t size,
                                             std::size_t outputBytes) {
  std::vector<std::uint8_t> out;
  out.reserve(outputBytes);
  std::size_t at = 0;
  while (at < size) {
    const std::uint8_t token = data[at++];
    const std::size_t literals = extendedLength(data, size, at, token >> 4);
    if (literals > size - at) throw ModuleImageError("LZ4 block's literals run past its end");
    if (literals > outputBytes - out.size()) {
      throw ModuleImageError("LZ4 block decodes to more than the " + std::to_string(outputBytes) +
                             " bytes its entry declares");
    }
    out.insert(out.end(), data + at, data + at + literals);
    at += literals;
    if (at == size) break;  // the last sequence holds only literals
    if (size - at < 2) throw ModuleImageError("LZ4 block ends inside a match offset");
    const std::size_t offset = data[at] | (std::size_t{data[at + 1]} << 8);
    at += 2;
    if (offset == 0 || offset > out.size()) {
      throw ModuleImageError("LZ4 block refers " + std::to_string(offset) + " bytes back, before its start");
    }
    const std::size_t match = extendedLength(data, size, at, token & 15) + 4;
    if (match > outputBytes - out.size()) {
      throw ModuleImageError("LZ4 block decodes to more than the " + std::to_string(outputBytes) +
                             " bytes its entry declares");
    }
    for (std::size_t i = 0; i < match; ++i) {  // byte by byte: a match may overlap what it copies
      const std::uint8_t byte = out[out.size() - offset];
      out.push_back(byte);
    }
  }
  if (out.size() != outputBytes) {
    throw ModuleImageError("LZ4 block decodes to " + std::to_string(out.size()) + " bytes, not the " +
                           std::to_string(outputBytes) + " its entry declares");
  }
  return out;
}

}  // namespace kreplay::capture
