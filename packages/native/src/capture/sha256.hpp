// SHA-256 (FIPS 180-4), streaming. Blob ids of a capture folder are a prefix of it (FORMAT.md), so
// that any reader can check a blob with a standard library (node:crypto, hashlib, sha256sum). Two
// codes compute it: portable C++, and the x86 SHA extensions (SHA-NI, sha256-ni.cpp) where the CPU
// has them; both give the same digest, and the default is the fastest this CPU runs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace kreplay::capture {

/** Which code computes the compression function. */
enum class Sha256Code { Portable, ShaNi };

/** Whether this CPU runs the SHA-NI code (x86 with the SHA, SSSE3 and SSE4.1 extensions). */
bool sha256ShaNiSupported();

/** The fastest code this CPU runs: ShaNi when supported, else Portable. */
Sha256Code fastestSha256Code();

class Sha256 {
 public:
  /** Hashes with the fastest code this CPU runs. */
  Sha256();
  /** Hashes with `code`. Throws std::invalid_argument for ShaNi on a CPU without it. */
  explicit Sha256(Sha256Code code);
  void update(const std::uint8_t* data, std::size_t size);
  /** The 32-byte digest; the object must not be updated afterwards. */
  std::array<std::uint8_t, 32> finish();

 private:
  void blocks(const std::uint8_t* data, std::size_t count);
  Sha256Code code_;
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

/** The lowercase hex digest of `size` bytes, with the fastest code. */
std::string sha256Hex(const std::uint8_t* data, std::size_t size);
/** The lowercase hex digest of `size` bytes, with `code` (throws as Sha256(code) does). */
std::string sha256Hex(const std::uint8_t* data, std::size_t size, Sha256Code code);

/** SHA-256's compression of `count` 64-byte blocks into `state`, with the SHA-NI instructions. */
void sha256BlocksShaNi(std::uint32_t* state, const std::uint8_t* data, std::size_t count);

}  // namespace kreplay::capture
