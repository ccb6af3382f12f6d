#include "capture/sha256.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace kreplay::capture {

namespace {

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
                             ((e & f) ^ (~e & g)) + kSha256Rounds[i] + w[i];
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
