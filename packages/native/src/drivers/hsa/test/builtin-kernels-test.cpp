// The built-in kernels, planned like the driver plans them and run through the CPU emulation of
// the AMDGPU kernels, compared bit for bit with the host driver's (core/kernels).
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/kernels/builtin-kernels.hpp"
#include "drivers/hsa/embedded-code-objects.hpp"
#include "drivers/hsa/test/host-operation-memory.hpp"
#include "drivers/hsa/test/kernel-emulator.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay;
using namespace kreplay::hsa;
using namespace kreplay::hsa::test;

namespace {

const CodeObjectMetadata& gfx1100() {
  static const CodeObjectMetadata metadata = [] {
    for (const auto& object : embeddedCodeObjects()) {
      if (std::string(object.processor) == "gfx1100")
        return readCodeObjectMetadata(object.bytes, object.size);
    }
    throw std::runtime_error("no gfx1100 code object");
  }();
  return metadata;
}

void runEmulated(BuiltinKernel kernel, const std::vector<std::uint64_t>& arguments,
                 std::uint32_t groupLimit = 0) {
  HostOperationMemory memory;
  emulatePlan(planBuiltinKernel(kernel, arguments, memory, sameAddress), gfx1100(), groupLimit);
}

std::uint64_t at(std::vector<std::uint8_t>& bytes, std::size_t offset) {
  return addressOf(bytes.data() + offset);
}

std::vector<std::uint8_t> randomFloats(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<float> value(-1000.0f, 1000.0f);
  std::vector<std::uint8_t> bytes(4 * count + 8);
  for (std::size_t index = 0; index < count; ++index) {
    float number =
        index % 97 == 0 ? 1e-40f * static_cast<float>(index % 7) : value(random);  // some denormals
    std::memcpy(bytes.data() + 4 * index, &number, 4);
  }
  return bytes;
}

std::uint64_t bitsOf(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

std::uint64_t bitsOf(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bits;
}

}  // namespace

TEST("emulated fill: any alignment and length repeats the pattern from the first byte") {
  ThreadPool pool(2);
  for (const std::size_t offset : {0u, 1u, 2u, 3u, 5u, 8u, 15u}) {
    for (const std::uint64_t bytes : {1u, 3u, 15u, 16u, 17u, 100u, 4099u, 70001u}) {
      std::vector<std::uint8_t> device(bytes + 64, 0xee);
      std::vector<std::uint8_t> host(bytes + 64, 0xee);
      runEmulated(BuiltinKernel::Fill, {at(device, offset), bytes, 0x11223344});
      fillKernel(pool, at(host, offset), bytes, 0x11223344);
      CHECK(device == host);
    }
  }
}

TEST("emulated scatterWrite: the chosen pages and words match the host driver") {
  ThreadPool pool(2);
  std::mt19937_64 random(3);
  std::vector<std::uint8_t> original(70000);
  for (auto& byte : original) byte = static_cast<std::uint8_t>(random());
  std::vector<std::uint8_t> source(9000);
  for (auto& byte : source) byte = static_cast<std::uint8_t>(random());
  struct Case {
    std::size_t offset;
    std::uint64_t bytes;
    std::uint64_t pageBytes;
    double fraction;
    std::uint64_t seed;
    std::size_t sourceOffset;
    std::uint64_t sourceBytes;
  };
  for (const Case& c : {Case{0, 65536, 4096, 0.5, 42, 0, 64}, Case{3, 60001, 1000, 0.3, 7, 5, 37},
                        Case{8, 50000, 333, 1.0, 9, 1, 8999}, Case{0, 4096, 4096, 0.0, 1, 0, 0},
                        Case{1, 20000, 4096, 0.75, 123456789, 0, 0}}) {
    std::vector<std::uint8_t> device = original;
    std::vector<std::uint8_t> host = original;
    const std::uint64_t sourceAddress = c.sourceBytes ? at(source, c.sourceOffset) : 0;
    runEmulated(BuiltinKernel::ScatterWrite,
                {at(device, c.offset), c.bytes, c.pageBytes, bitsOf(c.fraction), c.seed, sourceAddress,
                 c.sourceBytes},
                3);
    scatterWriteKernel(pool, at(host, c.offset), c.bytes, c.pageBytes, c.fraction, c.seed, sourceAddress,
                       c.sourceBytes);
    CHECK(device == host);
    CHECK((device != original) == (c.fraction > 0));
  }
}

TEST("emulated triad: every float is rounded like the host driver (no FMA)") {
  ThreadPool pool(2);
  const std::vector<std::uint8_t> b = randomFloats(5000, 1);
  const std::vector<std::uint8_t> c = randomFloats(5000, 2);
  for (const std::size_t offset : {0u, 1u}) {
    std::vector<std::uint8_t> bb = b;
    std::vector<std::uint8_t> cc = c;
    std::vector<std::uint8_t> device(4 * 5000 + 8, 0);
    std::vector<std::uint8_t> host(4 * 5000 + 8, 0);
    runEmulated(BuiltinKernel::Triad,
                {at(device, offset), at(bb, offset), at(cc, offset), bitsOf(1.1f), 4999}, 2);
    triadKernel(pool, at(host, offset), at(bb, offset), at(cc, offset), 1.1f, 4999);
    CHECK(device == host);
  }
}

TEST("emulated stencil: in place as if from a copy, across blocks, like the host driver") {
  ThreadPool pool(2);
  for (const std::uint64_t count : {0u, 2u, 3u, 4u, 1025u, 1026u, 1027u, 3000u, 5000u}) {
    for (const std::uint32_t groupLimit : {0u, 1u}) {
      std::vector<std::uint8_t> device = randomFloats(count + 1, count);
      std::vector<std::uint8_t> host = device;
      runEmulated(BuiltinKernel::Stencil, {at(device, 0), count}, groupLimit);
      stencilKernel(pool, at(host, 0), count);
      CHECK(device == host);
    }
  }
}

TEST("emulated accumulate: the float sum lands in output[0], whatever was there") {
  for (const std::uint64_t count : {0u, 1u, 1000u, 100000u}) {
    std::vector<std::uint8_t> input = randomFloats(count, 5);
    float output = 12345.0f;
    runEmulated(BuiltinKernel::Accumulate, {at(input, 0), count, addressOf(&output)}, 7);
    double expected = 0;
    for (std::uint64_t index = 0; index < count; ++index) {
      float value;
      std::memcpy(&value, input.data() + 4 * index, 4);
      expected += value;
    }
    CHECK(std::fabs(output - expected) <= 1e-3 * std::max(1.0, std::fabs(expected)) + 1.0);
    if (count == 0) CHECK_EQ(output, 0.0f);
  }
}

TEST("plans: built-in kernels become these dispatches") {
  HostOperationMemory memory;
  const auto fill = planBuiltinKernel(BuiltinKernel::Fill, {0x1000, 1 << 20, 7}, memory, sameAddress);
  CHECK_EQ(fill.steps.size(), 1u);
  CHECK_EQ(fill.steps[0].groups, (1u << 20) / 16 / 256);
  CHECK(planBuiltinKernel(BuiltinKernel::Fill, {0x1000, 0, 7}, memory, sameAddress).steps.empty());
  const auto scatter = planBuiltinKernel(BuiltinKernel::ScatterWrite, {0x1000, 8192, 4096, 0, 1, 0x9000, 64},
                                         memory, sameAddress);
  CHECK_EQ(scatter.steps.size(), 2u);
  CHECK(scatter.steps[0].kernel == DeviceKernel::XorDigest);
  CHECK_EQ(scatter.steps[1].arguments[5],
           scatter.steps[0].arguments[2]);  // the digest stands in for the source
  CHECK_EQ(scatter.steps[1].arguments[6], 8u);
  const auto stencil = planBuiltinKernel(BuiltinKernel::Stencil, {0x1000, 1 << 20}, memory, sameAddress);
  CHECK(stencil.steps[0].kernel == DeviceKernel::StencilEdges);
  CHECK_EQ(stencil.steps[1].groups, ((1u << 20) - 2 + 1023) / 1024);
  const auto accumulate =
      planBuiltinKernel(BuiltinKernel::Accumulate, {0x1000, 1 << 30, 0x2000}, memory, sameAddress);
  CHECK(accumulate.steps[0].kernel == DeviceKernel::Fill);
  CHECK_EQ(accumulate.steps[1].groups, 1024u);
  CHECK_EQ(groupsFor(0, 256), 1u);
  CHECK_EQ(groupsFor(257, 256), 2u);
  CHECK_EQ(groupsFor(std::uint64_t{1} << 40, 1), kMaximumGroups);
  const auto triad = planBuiltinKernel(BuiltinKernel::Triad, {1, 2, 3, 0xffffffff'3f800000ull, 10}, memory,
                                       [](std::uint64_t address) { return address + 0x100; });
  CHECK(triad.steps[0].arguments == (std::vector<std::uint64_t>{0x101, 0x102, 0x103, 0x3f800000, 10}));
}
