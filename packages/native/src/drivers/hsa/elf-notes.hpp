// The parts of an ELF64 little-endian file an AMDGPU code object is read for: the header's ABI
// version, machine and flags, and its notes. Every offset is checked against the file size.
// Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kreplay::hsa {

struct ElfHeader {
  std::uint8_t osAbi;       // ELFOSABI_AMDGPU_HSA = 64
  std::uint8_t abiVersion;  // ELFABIVERSION_AMDGPU_HSA_V4 = 2, V5 = 3, V6 = 4
  std::uint16_t type;       // ET_DYN = 3 for a loadable code object
  std::uint16_t machine;    // EM_AMDGPU = 224
  std::uint32_t flags;      // EF_AMDGPU_MACH (bits 0-7) and the xnack/sramecc feature bits
};

struct ElfNote {
  std::string name;  // without the terminating NUL
  std::uint32_t type;
  const std::uint8_t* descriptor;
  std::size_t descriptorSize;
};

constexpr std::uint16_t kElfMachineAmdgpu = 224;
constexpr std::uint8_t kElfOsAbiAmdgpuHsa = 64;
constexpr std::uint32_t kNoteAmdgpuMetadata = 32;  // NT_AMDGPU_METADATA, owner "AMDGPU"

/** @throws CodeObjectError unless `data` starts with an ELF64 little-endian header. */
ElfHeader readElfHeader(const std::uint8_t* data, std::size_t size);

/** The notes of the PT_NOTE segments, or of the SHT_NOTE sections when there is no segment. */
std::vector<ElfNote> readElfNotes(const std::uint8_t* data, std::size_t size);

}  // namespace kreplay::hsa
