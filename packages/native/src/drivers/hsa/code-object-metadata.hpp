// The metadata of an AMDGPU code object (v3 to v6): the ELF header's target, and the kernels of
// the NT_AMDGPU_METADATA note (msgpack): names, symbols, segment sizes and kernel arguments, as
// documented in LLVM's AMDGPUUsage ("Code Object V3+ Metadata"). Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kreplay::hsa {

struct KernelArgumentMetadata {
  std::string name;          // .name (optional in the metadata)
  std::string typeName;      // .type_name (optional)
  std::uint64_t offset;      // .offset in the kernarg segment
  std::uint64_t size;        // .size in bytes
  std::string valueKind;     // .value_kind: by_value, global_buffer, hidden_global_offset_x, ...
  std::string addressSpace;  // .address_space of pointers (global, constant, ...), else empty
  bool isConst = false;      // .is_const: a pointer to const data
};

struct KernelMetadata {
  std::string name;    // .name
  std::string symbol;  // .symbol: the kernel descriptor, "<name>.kd"
  std::uint64_t kernargSegmentSize = 0;
  std::uint64_t kernargSegmentAlign = 0;
  std::uint64_t groupSegmentFixedSize = 0;
  std::uint64_t privateSegmentFixedSize = 0;
  std::uint64_t wavefrontSize = 0;
  std::uint64_t maxFlatWorkgroupSize = 0;
  bool usesDynamicStack = false;
  std::vector<KernelArgumentMetadata> arguments;  // .args, in declaration order
};

struct CodeObjectMetadata {
  unsigned codeObjectVersion = 0;  // 3, 4, 5 or 6, from the ELF ABI version
  std::uint32_t elfFlags = 0;
  std::string processor;  // from EF_AMDGPU_MACH, e.g. gfx90a
  std::string targetId;   // processor and the feature settings of the flags, e.g. gfx90a:xnack-
  std::string target;     // amdhsa.target, e.g. amdgcn-amd-amdhsa--gfx90a
  std::vector<std::uint64_t> metadataVersion;  // amdhsa.version, e.g. [1, 2]
  std::vector<KernelMetadata> kernels;

  /** The kernel named `name`, or null. */
  const KernelMetadata* findKernel(const std::string& name) const;
};

/**
 * Reads a code object's ELF header and metadata note.
 * @throws CodeObjectError when it is not an AMDGPU HSA code object of version 3 or later, or its
 * metadata is missing or malformed.
 */
CodeObjectMetadata readCodeObjectMetadata(const std::uint8_t* data, std::size_t size);

/** The processor named by EF_AMDGPU_MACH (the low 8 bits of e_flags), or "mach 0x.." if unknown. */
std::string processorOfMach(std::uint32_t mach);

}  // namespace kreplay::hsa
