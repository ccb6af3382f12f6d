// LZ4 block decompression: literals, overlapping matches, extended lengths, and malformed blocks.
#include "capture/lz4-block.hpp"
#include "capture/module-image.hpp"
#include "capture/test/synthetic-images.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

namespace {

std::string decoded(const Bytes& block, std::size_t outputBytes) {
  const auto out = decompressLz4Block(block.data(), block.size(), outputBytes);
  return std::string(out.begin(), out.end());
}

}  // namespace

TEST("lz4: literals then a match that overlaps what it copies") {
  CHECK_EQ(decoded({0x35, 'a', 'b', 'c', 3, 0}, 12), std::string("abcabcabcabc"));
  // A match length of 15 + 255 + 3 (+4) after one literal.
  const Bytes block = {0x1f, 'z', 1, 0, 255, 3};
  CHECK_EQ(decoded(block, 1 + 15 + 255 + 3 + 4), std::string(1 + 15 + 255 + 3 + 4, 'z'));
}

TEST("lz4: a block of literals longer than 15 + 255 bytes") {
  const Bytes bytes(600, 'q');
  const Bytes block = lz4Literals(bytes);
  CHECK_EQ(block.size(), std::size_t{600 + 1 + 3});
  CHECK_EQ(decoded(block, 600), std::string(600, 'q'));
}

TEST("lz4: malformed blocks are errors saying what is wrong") {
  CHECK_THROWS(decoded({0x30, 'a'}, 3), "literals run past its end");
  CHECK_THROWS(decoded({0x10, 'a', 0, 0}, 10), "refers 0 bytes back");
  CHECK_THROWS(decoded({0x10, 'a', 2, 0}, 10), "refers 2 bytes back, before its start");
  CHECK_THROWS(decoded({0x10, 'a', 1}, 10), "ends inside a match offset");
  CHECK_THROWS(decoded({0xf0, 255}, 400), "ends inside a length");
  CHECK_THROWS(decoded({0x35, 'a', 'b', 'c', 3, 0}, 11), "decodes to more than the 11 bytes");
  CHECK_THROWS(decoded({0x30, 'a', 'b', 'c'}, 4), "decodes to 3 bytes, not the 4");
}

TEST("module image: an LZ4-compressed cubin in a fatbin is decoded and described") {
  const Bytes cubin = syntheticCubin().bytes;
  const Bytes fatbin = syntheticFatbin({{2, 90, 0x2011, lz4Literals(cubin), cubin.size()}});
  const ModuleImageInfo info = readModuleImage(fatbin.data(), fatbin.size());
  CHECK_EQ(info.entries.size(), std::size_t{1});
  CHECK(info.entries[0].compression == Compression::Lz4);
  CHECK(info.entries[0].cubin.has_value());
  CHECK_EQ(info.entries[0].cubin->kernels.at(0).name, std::string("scale"));
  CHECK_EQ(info.entries[0].cubin->kernels.at(0).parameterBufferBytes, 16u);
  const Bytes wrongSize = syntheticFatbin({{2, 90, 0x2011, lz4Literals(cubin), cubin.size() + 1}});
  CHECK_THROWS(readModuleImage(wrongSize.data(), wrongSize.size()),
               "fatbin entry at offset 16 (sm_90): LZ4 block decodes to");
  const Bytes huge = syntheticFatbin({{2, 90, 0x2011, lz4Literals(cubin), std::uint64_t{1} << 40}});
  CHECK_THROWS(readModuleImage(huge.data(), huge.size()), "do not fit");
}
