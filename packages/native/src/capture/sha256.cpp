#include "capture/sha256.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace kreplay::capture {

namespace {

constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline std::uint32_t rotateRight(std::uint32_t x, int bits) {
  return (x >> bits) | (x << (32 - bits));
}

/** One 64-byte block into the state, in portable C++. */
void portableBlock(std::array<std::uint32_t, 8>& state, const std::uint8_t* data) {
  std::uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = (std::uint32_t{data[4 * i]} << 24) | (std::uint32_t{data[4 * i + 1]} << 16) |
           (std::uint32_t{data[4 * i + 2]} << 8) | data[4 * i + 3];
  }
  for (int i = 16; i < 64; ++i) {
    const std::uint32_t s0 = rotateRight(w[i - 15], 7) ^ rotateRight(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const std::uint32_t s1 = rotateRight(w[i - 2], 17) ^ rotateRight(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; ++i) {
    const std::uint32_t t1 = h + (rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)) +
                             ((e & f) ^ (~e & g)) + kRound[i] + w[i];
    const std::uint32_t t2 =
        (rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

}  // namespace

Sha256Code fastestSha256Code() {
  static const Sha256Code fastest = sha256ShaNiSupported() ? Sha256Code::ShaNi : Sha256Code::Portable;
  return fastest;
}

Sha256::Sha256() : Sha256(fastestSha256Code()) {}

Sha256::Sha256(Sha256Code code)
    : code_(code),
      state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {
  if (code == Sha256Code::ShaNi && !sha256ShaNiSupported()) {
    throw std::invalid_argument(
        "[native] [capture] this CPU has no SHA-NI (x86 SHA extensions); use the portable SHA-256 code.");
  }
}

void Sha256::blocks(const std::uint8_t* data, std::size_t count) {
  if (code_ == Sha256Code::ShaNi) return sha256BlocksShaNi(state_.data(), data, count);
  for (; count > 0; --count, data += 64) portableBlock(state_, data);
}

void Sha256::update(const std::uint8_t* data, std::size_t size) {
  length_ += size;
  if (buffered_ > 0) {
    const std::size_t take = std::min(size, buffer_.size() - buffered_);
    std::memcpy(buffer_.data() + buffered_, data, take);
    buffered_ += take;
    data += take;
    size -= take;
    if (buffered_ < buffer_.size()) return;
    blocks(buffer_.data(), 1);
    buffered_ = 0;
  }
  const std::size_t whole = size / 64;
  if (whole > 0) blocks(data, whole);
  data += 64 * whole;
  size -= 64 * whole;
  std::memcpy(buffer_.data(), data, size);
  buffered_ = size;
}

std::array<std::uint8_t, 32> Sha256::finish() {
  const std::uint64_t bits = length_ * 8;
  const std::uint8_t one = 0x80;
  const std::uint8_t zero[64] = {};
  update(&one, 1);
  update(zero, (buffered_ <= 56 ? 56 : 120) - buffered_);
  std::uint8_t length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
  update(length, 8);
  std::array<std::uint8_t, 32> digest{};
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<std::uint8_t>(state_[i] >> (24 - 8 * j));
  }
  return digest;
}

std::string sha256Hex(const std::uint8_t* data, std::size_t size) {
  return sha256Hex(data, size, fastestSha256Code());
}

std::string sha256Hex(const std::uint8_t* data, std::size_t size, Sha256Code code) {
  Sha256 hash(code);
  hash.update(data, size);
  static const char kDigits[] = "0123456789abcdef";
  std::string text;
  for (std::uint8_t byte : hash.finish()) {
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

}  // namespace kreplay::capture
