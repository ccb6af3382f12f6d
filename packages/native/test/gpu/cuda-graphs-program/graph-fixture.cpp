// The CUDA graphs check program's fixture (see graph-checks.hpp): the context, streams, kernel and
// buffers every check uses, and reading and writing the buffers.
#include <cstring>

#include "graph-checks.hpp"

GraphFixture::GraphFixture(const std::string& ptx) {
  CALL(cuInit, 0);
  CALL(cuDeviceGet, &device, 0);
  CALL(cuDevicePrimaryCtxRetain, &context, device);
  CALL(cuCtxSetCurrent, context);
  CALL(cuModuleLoadDataEx, &module, ptx.c_str(), 0, nullptr, nullptr);
  CALL(cuModuleGetFunction, &scale, module, "kreplay_test_scale_floats");
  CALL(cuStreamCreate, &stream, 1);
  CALL(cuStreamCreate, &other, 1);
  CALL(cuMemAlloc_v2, &a, bytes);
  CALL(cuMemAlloc_v2, &b, bytes);
  CALL(cuMemAlloc_v2, &c, bytes);
  const float one = 1.0f;
  std::memcpy(&oneBits, &one, 4);
}

void GraphFixture::destroyGraphs() {
  for (Handle exec : execs) CALL(cuGraphExecDestroy, exec);
  for (Handle graph : graphs) CALL(cuGraphDestroy, graph);
}

void GraphFixture::upload(Ptr to, float scaleBy) {
  for (std::uint32_t i = 0; i < n; ++i) host[i] = static_cast<float>(i + 1) * scaleBy;
  CALL(cuMemcpy, to, reinterpret_cast<Ptr>(host.data()), bytes);
}

bool GraphFixture::holds(Ptr from, float scaleBy) {
  std::vector<float> read(n);
  CALL(cuMemcpy, reinterpret_cast<Ptr>(read.data()), from, bytes);
  for (std::uint32_t i = 0; i < n; ++i)
    if (read[i] != static_cast<float>(i + 1) * scaleBy) return false;
  return true;
}

bool GraphFixture::holdsEvery(Ptr from, float value) {
  std::vector<float> read(n);
  CALL(cuMemcpy, reinterpret_cast<Ptr>(read.data()), from, bytes);
  for (const float item : read)
    if (item != value) return false;
  return true;
}

namespace {

// Kernel node parameters: values the driver copies when the node is made or set.
struct Scale {
  Ptr data;
  std::uint32_t count = GraphFixture::n;
  float factor;
  void* pointers[3];
  KernelNodeParams params() {
    pointers[0] = &data;
    pointers[1] = &count;
    pointers[2] = &factor;
    constexpr unsigned blocks = (GraphFixture::n + 63) / 64;
    return KernelNodeParams{nullptr, blocks, 1, 1, 64, 1, 1, 0, pointers, nullptr, nullptr, nullptr};
  }
};

}  // namespace

KernelNodeParams GraphFixture::scaleNode(Ptr data, float factor) {
  static Scale storage[16];
  static int used = 0;
  Scale& s = storage[used++ % 16];
  s.data = data;
  s.count = n;
  s.factor = factor;
  KernelNodeParams params = s.params();
  params.func = scale;
  return params;
}

float GraphFixture::factorOf(Handle node) {
  KernelNodeParams read{};
  CALL(cuGraphKernelNodeGetParams_v2, node, &read);
  return *static_cast<const float*>(read.kernelParams[2]);
}
