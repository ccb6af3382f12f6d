// The AMDGPU code objects of src/kernels-amdgpu, embedded in the addon at build time (see
// embed-code-objects.cmake), one per target processor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kreplay::hsa {

struct EmbeddedCodeObject {
  const char* processor;  // e.g. gfx90a
  const unsigned char* bytes;
  std::size_t size;
};

const std::vector<EmbeddedCodeObject>& embeddedCodeObjects();

}  // namespace kreplay::hsa
