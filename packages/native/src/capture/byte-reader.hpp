// Bounds-checked little-endian reads from an image in memory: every read names what it reads, and a
// read past the end throws ModuleImageError with that name, the offset and the image's length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace kreplay::capture {

/** A module image is malformed: the message names the structure and where it went wrong. */
struct ModuleImageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::size_t size() const { return size_; }
  const std::uint8_t* data() const { return data_; }

  /** Throws unless [offset, offset + bytes) lies inside the image. */
  void require(std::uint64_t offset, std::uint64_t bytes, const char* what) const {
    if (offset > size_ || bytes > size_ - offset) {
      throw ModuleImageError(std::string("truncated image: ") + what + " at offset " +
                             std::to_string(offset) + " (" + std::to_string(bytes) +
                             " bytes) runs past the end of the " + std::to_string(size_) + "-byte image");
    }
  }

  template <class T>
  T read(std::uint64_t offset, const char* what) const {
    require(offset, sizeof(T), what);
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
      value |= static_cast<T>(static_cast<T>(data_[offset + i]) << (8 * i));
    return value;
  }

  std::uint8_t u8(std::uint64_t offset, const char* what) const { return read<std::uint8_t>(offset, what); }
  std::uint16_t u16(std::uint64_t offset, const char* what) const {
    return read<std::uint16_t>(offset, what);
  }
  std::uint32_t u32(std::uint64_t offset, const char* what) const {
    return read<std::uint32_t>(offset, what);
  }
  std::uint64_t u64(std::uint64_t offset, const char* what) const {
    return read<std::uint64_t>(offset, what);
  }

  /** A sub-range as its own reader (offsets relative to its start). */
  ByteReader slice(std::uint64_t offset, std::uint64_t bytes, const char* what) const {
    require(offset, bytes, what);
    return ByteReader(data_ + offset, static_cast<std::size_t>(bytes));
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

}  // namespace kreplay::capture
