// The driver's built-in kernels (and the user-kernel test's kernel), compiled as C++ against
// fake-device-runtime.hpp, and a table that launches them by name from cuLaunchKernel's arguments.
#include "fake-kernels.hpp"

#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "fake-device-runtime.hpp"
// clang-format off
#include "kernels-cuda/module.cu"
#include "../gpu/kernels/scale-floats.cu"
#include "../capture-fixtures/axpy.cu"
#include "../capture-fixtures/block-sums.cu"
// clang-format on

// The kernel of the capture library's synthetic cubin (src/capture/test/synthetic-images.hpp), for
// its tests that run over this fake: data[i] = data[i] * 2 + 1 for i < count.
extern "C" __global__ void scale(float* data, int count) {
  const unsigned long long index = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index < static_cast<unsigned long long>(count)) data[index] = __fadd_rn(__fmul_rn(data[index], 2.0f), 1.0f);
}

namespace kreplay_fake {

namespace {

template <typename... Parameters, std::size_t... Index>
FakeKernel makeKernel(void (*function)(Parameters...), std::index_sequence<Index...>) {
  FakeKernel kernel;
  kernel.parameterBytes = {sizeof(Parameters)...};
  kernel.parameterAlignments = {alignof(Parameters)...};
  kernel.run = [function](const std::vector<std::vector<unsigned char>>& values) {
    function(*reinterpret_cast<const Parameters*>(values[Index].data())...);
  };
  return kernel;
}

template <typename... Parameters>
FakeKernel makeKernel(void (*function)(Parameters...)) {
  return makeKernel(function, std::index_sequence_for<Parameters...>{});
}

}  // namespace

const FakeKernel* findKernel(const std::string& name) {
  static const std::map<std::string, FakeKernel> kernels = {
#define KREPLAY_FAKE_KERNEL(name) {#name, makeKernel(name)}
      KREPLAY_FAKE_KERNEL(kreplay_hash_pages_warp),
      KREPLAY_FAKE_KERNEL(kreplay_hash_pages_block),
      KREPLAY_FAKE_KERNEL(kreplay_find_changed_pages_warp),
      KREPLAY_FAKE_KERNEL(kreplay_find_changed_pages_block),
      KREPLAY_FAKE_KERNEL(kreplay_check_page_list),
      KREPLAY_FAKE_KERNEL(kreplay_copy_page_list_warp),
      KREPLAY_FAKE_KERNEL(kreplay_copy_page_list_block),
      KREPLAY_FAKE_KERNEL(kreplay_check_and_copy_page_list_warp),
      KREPLAY_FAKE_KERNEL(kreplay_check_and_copy_page_list_block),
      KREPLAY_FAKE_KERNEL(kreplay_copy_chunks_warp),
      KREPLAY_FAKE_KERNEL(kreplay_copy_chunks_block),
      KREPLAY_FAKE_KERNEL(kreplay_fill),
      KREPLAY_FAKE_KERNEL(kreplay_xor_words),
      KREPLAY_FAKE_KERNEL(kreplay_scatter_write_warp),
      KREPLAY_FAKE_KERNEL(kreplay_scatter_write_block),
      KREPLAY_FAKE_KERNEL(kreplay_triad),
      KREPLAY_FAKE_KERNEL(kreplay_stencil_save),
      KREPLAY_FAKE_KERNEL(kreplay_stencil),
      KREPLAY_FAKE_KERNEL(kreplay_accumulate),
      KREPLAY_FAKE_KERNEL(kreplay_delay),
      KREPLAY_FAKE_KERNEL(kreplay_discard_l2_lines),
      KREPLAY_FAKE_KERNEL(kreplay_take_state),
      KREPLAY_FAKE_KERNEL(kreplay_test_scale_floats),
      KREPLAY_FAKE_KERNEL(kreplay_capture_fixture_axpy),
      KREPLAY_FAKE_KERNEL(kreplay_capture_fixture_block_sums),
      KREPLAY_FAKE_KERNEL(scale),
#undef KREPLAY_FAKE_KERNEL
  };
  const auto found = kernels.find(name);
  return found == kernels.end() ? nullptr : &found->second;
}

const std::vector<FakeGlobal>& moduleGlobals() {
  static const std::vector<FakeGlobal> globals = {
      {"kreplay_capture_fixture_launches", sizeof(kreplay_capture_fixture_launches)},
      {"kreplay_capture_fixture_table", sizeof(kreplay_capture_fixture_table)},
  };
  return globals;
}

}  // namespace kreplay_fake
