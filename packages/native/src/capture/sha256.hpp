// SHA-256 (FIPS 180-4), streaming. Blob ids of a capture folder are a prefix of it (FORMAT.md), so
// that any reader can check a blob with a standard library (node:crypto, hashlib, sha256sum).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace kreplay::capture {

class Sha256 {
 public:
  Sha256();
  void update(const std::uint8_t* data, std::size_t size);
  /** The 32-byte digest; the object must not be updated afterwards. */
  std::array<std::uint8_t, 32> finish();

 private:
  void block(const std::uint8_t* data);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

/** The lowercase hex digest of `size` bytes. */
std::string sha256Hex(const std::uint8_t* data, std::size_t size);

}  // namespace kreplay::capture
