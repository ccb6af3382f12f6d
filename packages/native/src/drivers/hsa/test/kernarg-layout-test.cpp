// Kernarg layout from code-object metadata: the committed kernels' explicit arguments, the hidden
// arguments of a code object v5 kernel (fixture), alignment, and what the driver refuses.
#include <cstring>

#include "drivers/hsa/embedded-code-objects.hpp"
#include "drivers/hsa/kernarg-layout.hpp"
#include "drivers/hsa/test/test-fixtures.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::hsa;
using kreplay::hsa::test::readFixture;

namespace {

template <class T>
T at(const Kernarguments& layout, std::size_t offset) {
  T value;
  std::memcpy(&value, layout.bytes.data() + offset, sizeof value);
  return value;
}

CodeObjectMetadata gfx90a() {
  for (const auto& object : embeddedCodeObjects()) {
    if (std::string(object.processor) == "gfx90a") return readCodeObjectMetadata(object.bytes, object.size);
  }
  throw std::runtime_error("no gfx90a code object");
}

DispatchShape shape(std::uint32_t grid, std::uint32_t group) {
  DispatchShape result;
  result.gridSize = {grid, 1, 1};
  result.workgroupSize = {group, 1, 1};
  return result;
}

KernelArgumentMetadata argument(std::uint64_t offset, std::uint64_t size, const char* kind) {
  return {"", "", offset, size, kind, ""};
}

}  // namespace

TEST("kernargs: fill's pointer, u64 and u32 land at the metadata's offsets") {
  const CodeObjectMetadata metadata = gfx90a();
  const KernelMetadata& fill = *metadata.findKernel("kreplay_fill");
  const Kernarguments layout =
      layoutKernarguments(fill, {0x7f00'0000'1000, 4096, 0xdeadbeef'cafef00d}, shape(256, 256));
  CHECK_EQ(layout.bytes.size(), 20u);
  CHECK_EQ(layout.alignment, 16u);  // ROCr's minimum, above the kernel's 8
  CHECK_EQ(at<std::uint64_t>(layout, 0), 0x7f00'0000'1000ull);
  CHECK_EQ(at<std::uint64_t>(layout, 8), 4096ull);
  CHECK_EQ(at<std::uint32_t>(layout, 16), 0xcafef00du);  // the low 4 bytes of a u32 argument
}

TEST("kernargs: triad's f32 scalar travels as its bit pattern after three pointers") {
  const CodeObjectMetadata metadata = gfx90a();
  const KernelMetadata& triad = *metadata.findKernel("kreplay_triad");
  float scalar = 2.5f;
  std::uint32_t bits;
  std::memcpy(&bits, &scalar, 4);
  const Kernarguments layout =
      layoutKernarguments(triad, {0x1000, 0x2000, 0x3000, bits, 77}, shape(256, 256));
  CHECK_EQ(triad.arguments[3].offset, 24u);
  CHECK_EQ(triad.arguments[4].offset, 32u);  // a u64 after a 4-byte float is realigned to 8
  CHECK_EQ(at<float>(layout, 24), 2.5f);
  CHECK_EQ(at<std::uint32_t>(layout, 28), 0u);  // padding stays 0
  CHECK_EQ(at<std::uint64_t>(layout, 32), 77ull);
  CHECK_EQ(layout.bytes.size(), 40u);
}

TEST("kernargs: the hidden arguments of a v5 kernel get the dispatch's geometry") {
  const std::vector<std::uint8_t> bytes = readFixture("implicit-arguments-gfx90a-v5.hsaco");
  const CodeObjectMetadata metadata = readCodeObjectMetadata(bytes.data(), bytes.size());
  CHECK_EQ(metadata.codeObjectVersion, 5u);
  const KernelMetadata& kernel = metadata.kernels.at(0);
  CHECK_EQ(kernel.kernargSegmentSize, 280u);  // 20 explicit bytes, aligned to 24, + 256 implicit
  DispatchShape dispatch = shape(1000, 256);  // 3 full work-groups and a partial one of 232
  const Kernarguments layout = layoutKernarguments(kernel, {0x5000, 12, 0x3f800000}, dispatch);
  CHECK_EQ(at<std::uint64_t>(layout, 0), 0x5000ull);
  CHECK_EQ(at<std::uint64_t>(layout, 8), 12ull);
  CHECK_EQ(at<std::uint32_t>(layout, 16), 0x3f800000u);
  CHECK_EQ(at<std::uint32_t>(layout, 24), 3u);    // hidden_block_count_x: whole work-groups
  CHECK_EQ(at<std::uint32_t>(layout, 28), 1u);    // hidden_block_count_y
  CHECK_EQ(at<std::uint16_t>(layout, 36), 256);   // hidden_group_size_x
  CHECK_EQ(at<std::uint16_t>(layout, 38), 1);     // hidden_group_size_y
  CHECK_EQ(at<std::uint16_t>(layout, 42), 232);   // hidden_remainder_x
  CHECK_EQ(at<std::uint16_t>(layout, 44), 0);     // hidden_remainder_y
  CHECK_EQ(at<std::uint64_t>(layout, 64), 0ull);  // hidden_global_offset_x
  CHECK_EQ(at<std::uint16_t>(layout, 88), 1);     // hidden_grid_dims
  for (std::size_t byte = 96; byte < 280; ++byte) CHECK_EQ(layout.bytes[byte], 0);
}

TEST("kernargs: the queue pointer is passed where a kernel asks for it") {
  KernelMetadata kernel;
  kernel.name = "k";
  kernel.kernargSegmentSize = 16;
  kernel.kernargSegmentAlign = 8;
  kernel.arguments = {argument(0, 8, "global_buffer"), argument(8, 8, "hidden_queue_ptr")};
  DispatchShape dispatch = shape(256, 256);
  dispatch.queueAddress = 0x7777'0000;
  const Kernarguments layout = layoutKernarguments(kernel, {0x10}, dispatch);
  CHECK_EQ(at<std::uint64_t>(layout, 8), 0x7777'0000ull);
}

TEST("kernargs: arguments that do not fit the metadata are refused") {
  const CodeObjectMetadata metadata = gfx90a();
  const KernelMetadata& fill = *metadata.findKernel("kreplay_fill");
  CHECK_THROWS(layoutKernarguments(fill, {1, 2}, shape(256, 256)), "takes 3 arguments, not 2");
  CHECK_THROWS(layoutKernarguments(fill, {1, 2, 3, 4}, shape(256, 256)), "takes 3 arguments, not 4");

  KernelMetadata kernel;
  kernel.name = "k";
  kernel.kernargSegmentSize = 32;
  kernel.kernargSegmentAlign = 8;
  kernel.arguments = {argument(4, 8, "by_value")};
  CHECK_THROWS(layoutKernarguments(kernel, {1}, shape(256, 256)), "not aligned to its size");
  kernel.arguments = {argument(0, 8, "by_value"), argument(4, 4, "by_value")};
  CHECK_THROWS(layoutKernarguments(kernel, {1, 2}, shape(256, 256)), "overlaps another argument");
  kernel.arguments = {argument(32, 8, "by_value")};
  CHECK_THROWS(layoutKernarguments(kernel, {1}, shape(256, 256)), "past the kernarg segment");
  kernel.arguments = {argument(0, 16, "by_value")};
  CHECK_THROWS(layoutKernarguments(kernel, {1}, shape(256, 256)), "only 1, 2, 4 and 8");
  kernel.arguments = {argument(0, 8, "image")};
  CHECK_THROWS(layoutKernarguments(kernel, {1}, shape(256, 256)), "of kind image");
  kernel.arguments = {argument(0, 8, "hidden_hostcall_buffer")};
  CHECK_THROWS(layoutKernarguments(kernel, {}, shape(256, 256)),
               "needs the hidden argument hidden_hostcall_buffer");
  kernel.arguments = {argument(0, 8, "hidden_heap_v1")};
  CHECK_THROWS(layoutKernarguments(kernel, {}, shape(256, 256)), "hidden_heap_v1");
  kernel.arguments = {};
  kernel.kernargSegmentAlign = 12;
  CHECK_THROWS(layoutKernarguments(kernel, {}, shape(256, 256)), "not a power of two");
}

TEST("kernargs: a kernel's own alignment above 16 is kept") {
  KernelMetadata kernel;
  kernel.name = "k";
  kernel.kernargSegmentSize = 64;
  kernel.kernargSegmentAlign = 64;
  CHECK_EQ(layoutKernarguments(kernel, {}, shape(256, 256)).alignment, 64u);
}
