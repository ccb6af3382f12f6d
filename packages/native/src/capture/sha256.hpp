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

/** SHA-256's 64 round constants (FIPS 180-4, 4.2.2), for both codes. */
alignas(16) inline constexpr std::uint32_t kSha256Rounds[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/** SHA-256's compression of `count` 64-byte blocks into `state`, with the SHA-NI instructions. */
void sha256BlocksShaNi(std::uint32_t* state, const std::uint8_t* data, std::size_t count);

}  // namespace kreplay::capture
