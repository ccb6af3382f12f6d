// What a capture needs to know about a CUDA module image (a cubin, or a fatbin holding cubins and
// PTX): its kernels with their parameter layouts, its globals, the architecture of each cubin.
// Layouts are described in README.md next to this file. No CUDA headers, no Node-API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capture/byte-reader.hpp"

namespace kreplay::capture {

/** One kernel parameter, from an EIATTR_KPARAM_INFO record. */
struct KernelParameterInfo {
  std::uint32_t index = 0;   ///< the parameter's ordinal in the kernel's signature, from 0
  std::uint32_t offset = 0;  ///< its byte offset in the parameter buffer
  std::uint32_t size = 0;    ///< its size in bytes
};

/** One kernel (an entry function) of a cubin. */
struct KernelInfo {
  std::string name;                             ///< the symbol name (mangled for C++ kernels)
  std::vector<KernelParameterInfo> parameters;  ///< ordered by index
  /** The parameter buffer's size (EIATTR_CBANK_PARAM_SIZE); else the end of the last parameter. */
  std::uint32_t parameterBufferBytes = 0;
  /** Where the parameters sit in constant bank 0 (EIATTR_PARAM_CBANK), if recorded. */
  std::optional<std::uint32_t> parameterBankOffset;
  /** Registers per thread (EIATTR_REGCOUNT in the module's .nv.info), if recorded. */
  std::optional<std::uint32_t> registers;
  /** Bytes of its machine code: the entry symbol's size, else the size of the section holding it (`.text.<name>`). */
  std::uint64_t codeBytes = 0;
};

/** A `__device__` or `__constant__` variable of a cubin. */
struct GlobalInfo {
  std::string name;
  std::string section;       ///< e.g. `.nv.global`, `.nv.global.init`, `.nv.constant3`
  bool constant = false;     ///< in a constant bank (`__constant__`), else global memory (`__device__`)
  std::uint64_t offset = 0;  ///< the symbol's value: its offset in the section
  std::uint64_t size = 0;
};

/** What a cubin (a CUDA ELF) describes. */
struct CubinInfo {
  std::uint32_t architecture = 0;  ///< the SM version, e.g. 90 for sm_90
  std::uint32_t abiVersion = 0;    ///< e_ident[EI_ABIVERSION]
  std::vector<KernelInfo> kernels;
  std::vector<GlobalInfo> globals;
  /** .nv.info attribute codes met and skipped because this reader does not know them (each once). */
  std::vector<std::uint32_t> unknownAttributes;
};

enum class EntryKind { Cubin, Ptx };
enum class Compression { None, Lz4, Zstd, Unknown };

/** One entry of a module image: a cubin or a PTX text. */
struct ModuleEntry {
  EntryKind kind = EntryKind::Cubin;
  std::uint32_t architecture = 0;  ///< sm_XX of a cubin, compute_XX of a PTX
  Compression compression = Compression::None;
  std::uint64_t offset = 0;  ///< the payload's offset in the image
  std::uint64_t bytes = 0;   ///< the payload's stored size
  /** The cubin's description; absent for PTX and for zstd-compressed cubins (not decoded). */
  std::optional<CubinInfo> cubin;
};

struct ModuleImageInfo {
  bool fatbin = false;  ///< a fatbin container; false for a bare cubin
  std::vector<ModuleEntry> entries;
  bool hasPtx() const;
};

/** Describes a cubin. Throws ModuleImageError when the ELF is malformed. */
CubinInfo readCubin(const std::uint8_t* data, std::size_t size);

/**
 * Describes a module image: an ELF cubin or a fatbin (one or more fatbin containers back to back).
 * Throws ModuleImageError naming what is wrong (truncated, bad magic, a cubin inside that is malformed).
 */
ModuleImageInfo readModuleImage(const std::uint8_t* data, std::size_t size);

const char* compressionName(Compression compression);

}  // namespace kreplay::capture
