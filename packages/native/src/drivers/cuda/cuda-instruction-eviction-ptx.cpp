#include "drivers/cuda/cuda-instruction-eviction-ptx.hpp"

namespace kreplay::cuda {

namespace {

/** Bytes of one instruction from Volta on. */
constexpr std::uint64_t kInstructionBytes = 16;

}  // namespace

std::string instructionEvictionPtx(std::uint64_t codeBytes) {
  const std::uint64_t count = codeBytes / kInstructionBytes;
  std::string ptx = std::string(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry ") +
                    kInstructionEvictionKernel +
                    "(.param .u64 sink) {\n"
                    "  .reg .u32 %r<2>;\n  .reg .u64 %rd<3>;\n  .reg .pred %p;\n"
                    "  mov.u32 %r1, %tid.x;\n";
  ptx.reserve(ptx.size() + count * 40 + 200);
  for (std::uint64_t index = 0; index < count; ++index) {
    ptx += "  mad.lo.u32 %r1, %r1, %r1, " + std::to_string(2 * index + 1) + ";\n";
  }
  ptx +=
      "  setp.ne.u32 %p, %r1, 1234567;\n  @%p bra DONE;\n"
      "  ld.param.u64 %rd1, [sink];\n  cvta.to.global.u64 %rd2, %rd1;\n  st.global.u32 [%rd2], %r1;\n"
      "DONE:\n  ret;\n}\n";
  return ptx;
}

}  // namespace kreplay::cuda
