// Small module images built byte by byte, so that the reader's tests need no CUDA toolkit: a cubin
// with one kernel, two globals and a module .nv.info, and fatbins around it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kreplay::capture::test {

using Bytes = std::vector<std::uint8_t>;

/** Where the synthetic cubin keeps the parts a test corrupts. */
struct SyntheticCubin {
  Bytes bytes;
  std::uint64_t kernelInfoOffset = 0;  ///< the .nv.info.scale section's contents
  std::uint64_t kernelInfoHeader = 0;  ///< its section header
};

/**
 * A cubin (ELF ABI version `abiVersion`) for sm_90 with kernel `scale(float* data, int count)`
 * (parameters at 0 and 8, a 16-byte buffer at c[0][0x210], 12 registers), `__device__ int counter`
 * at .nv.global+4 and `__constant__ double coefficients` in .nv.constant3, and one attribute 0x7e
 * unknown to the reader. `extra` is appended to the kernel's .nv.info records.
 */
SyntheticCubin syntheticCubin(std::uint8_t abiVersion = 8, const Bytes& extra = {});

/** One fatbin entry: kind 1 (PTX) or 2 (ELF), its architecture, header flags and payload. */
struct SyntheticEntry {
  std::uint16_t kind;
  std::uint32_t architecture;
  std::uint64_t flags;
  Bytes payload;
  std::uint64_t uncompressedBytes = 0;  ///< the header's decoded size, for a compressed payload
};

/** `bytes` as one LZ4 block of literals only (valid LZ4, no compression). */
Bytes lz4Literals(const Bytes& bytes);

/** A fatbin container holding the entries (payloads padded to 8 bytes). */
Bytes syntheticFatbin(const std::vector<SyntheticEntry>& entries);

}  // namespace kreplay::capture::test
