// SHA-256's compression function with the x86 SHA extensions (SHA-NI): four rounds per pair of
// sha256rnds2, the message schedule by sha256msg1/msg2. Compiled for any x86-64 (the function alone
// is built for the extensions) and called only where the CPU reports them (cpuid).
#include <cstdint>
#include <stdexcept>

#include "capture/sha256.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define KREPLAY_SHA_NI 1
#endif

namespace kreplay::capture {

#ifdef KREPLAY_SHA_NI

bool sha256ShaNiSupported() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  const bool ssse3 = (ecx & (1u << 9)) != 0, sse41 = (ecx & (1u << 19)) != 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  const bool sha = (ebx & (1u << 29)) != 0;
  return ssse3 && sse41 && sha;
}

__attribute__((target("sha,ssse3,sse4.1"))) void sha256BlocksShaNi(std::uint32_t* state,
                                                                    const std::uint8_t* data,
                                                                    std::size_t count) {
  const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  // The state as the instructions want it: ABEF and CDGH.
  __m128i swapped = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state)), 0xB1);
  __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4)), 0x1B);
  __m128i state0 = _mm_alignr_epi8(swapped, state1, 8);
  state1 = _mm_blend_epi16(state1, swapped, 0xF0);
  for (; count > 0; --count, data += 64) {
    const __m128i savedAbef = state0, savedCdgh = state1;
    __m128i words[4];
    for (int i = 0; i < 4; ++i)
      words[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)), byteSwap);
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) {
      __m128i message =
          _mm_add_epi32(words[i % 4], _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256Rounds + 4 * i)));
      state1 = _mm_sha256rnds2_epu32(state1, state0, message);
      if (i >= 3 && i < 15) {
        // The schedule's next four words: W[t-16..] + W[t-7..] (alignr) then msg2 with the last four.
        const __m128i shifted = _mm_alignr_epi8(words[i % 4], words[(i + 3) % 4], 4);
        words[(i + 1) % 4] = _mm_sha256msg2_epu32(_mm_add_epi32(words[(i + 1) % 4], shifted), words[i % 4]);
      }
      message = _mm_shuffle_epi32(message, 0x0E);
      state0 = _mm_sha256rnds2_epu32(state0, state1, message);
      if (i >= 1 && i < 13) words[(i + 3) % 4] = _mm_sha256msg1_epu32(words[(i + 3) % 4], words[i % 4]);
    }
    state0 = _mm_add_epi32(state0, savedAbef);
    state1 = _mm_add_epi32(state1, savedCdgh);
  }
  // Back to A..H.
  const __m128i feba = _mm_shuffle_epi32(state0, 0x1B);
  state1 = _mm_shuffle_epi32(state1, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, state1, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(state1, feba, 8));
}

#else

bool sha256ShaNiSupported() {
  return false;
}

void sha256BlocksShaNi(std::uint32_t*, const std::uint8_t*, std::size_t) {
  throw std::invalid_argument("[native] [capture] SHA-NI exists only on x86; use the portable SHA-256 code.");
}

#endif

}  // namespace kreplay::capture
