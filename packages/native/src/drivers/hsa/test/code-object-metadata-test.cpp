// The AMDGPU code object reader on the committed code objects (v5, one per target), a v4 fixture,
// hand-made msgpack, and malformed input.
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "drivers/hsa/code-object-metadata.hpp"
#include "drivers/hsa/device-kernels.hpp"
#include "drivers/hsa/embedded-code-objects.hpp"
#include "drivers/hsa/msgpack-reader.hpp"
#include "drivers/hsa/test/test-fixtures.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::hsa;
using kreplay::hsa::test::readFixture;

TEST("code objects: one per target is embedded: gfx90a, gfx942, gfx1100") {
  std::vector<std::string> processors;
  for (const auto& object : embeddedCodeObjects()) processors.push_back(object.processor);
  CHECK(processors == (std::vector<std::string>{"gfx1100", "gfx90a", "gfx942"}));
}

TEST("code objects: every embedded object is v5 for its processor and matches the kernel table") {
  for (const auto& object : embeddedCodeObjects()) {
    const CodeObjectMetadata metadata = readCodeObjectMetadata(object.bytes, object.size);
    CHECK_EQ(metadata.codeObjectVersion, 5u);
    CHECK_EQ(metadata.processor, std::string(object.processor));
    CHECK_EQ(metadata.targetId,
             std::string(object.processor));  // xnack and sramecc "any": loads on every setting
    CHECK_EQ(metadata.target, "amdgcn-amd-amdhsa--" + std::string(object.processor));
    CHECK(metadata.metadataVersion == (std::vector<std::uint64_t>{1, 2}));
    CHECK_EQ(metadata.kernels.size(), static_cast<std::size_t>(kDeviceKernelCount));
    const auto problems = checkDeviceKernels(metadata);
    CHECK_EQ(problems.size(), 0u);
    const std::uint64_t wavefront = std::string(object.processor) == "gfx1100" ? 32 : 64;
    for (const auto& kernel : metadata.kernels) {
      CHECK_EQ(kernel.wavefrontSize, wavefront);
      CHECK_EQ(kernel.maxFlatWorkgroupSize, 256u);
      CHECK(kernel.kernargSegmentAlign >= 4 && kernel.kernargSegmentAlign <= 8);
    }
  }
}

TEST("code objects: the fill kernel's metadata fields, read from the v5 object") {
  const auto& object = embeddedCodeObjects().at(1);  // gfx90a
  const CodeObjectMetadata metadata = readCodeObjectMetadata(object.bytes, object.size);
  const KernelMetadata* fill = metadata.findKernel("kreplay_fill");
  CHECK(fill != nullptr);
  CHECK_EQ(fill->symbol, "kreplay_fill.kd");
  CHECK_EQ(fill->kernargSegmentSize, 20u);
  CHECK_EQ(fill->kernargSegmentAlign, 8u);
  CHECK_EQ(fill->groupSegmentFixedSize, 0u);
  CHECK_EQ(fill->privateSegmentFixedSize, 0u);
  CHECK_EQ(fill->arguments.size(), 3u);
  CHECK_EQ(fill->arguments[0].name, "destination");
  CHECK_EQ(fill->arguments[0].valueKind, "global_buffer");
  CHECK_EQ(fill->arguments[0].addressSpace, "global");
  CHECK_EQ(fill->arguments[0].offset, 0u);
  CHECK_EQ(fill->arguments[0].size, 8u);
  CHECK_EQ(fill->arguments[1].name, "bytes");
  CHECK_EQ(fill->arguments[1].offset, 8u);
  CHECK_EQ(fill->arguments[2].name, "value");
  CHECK_EQ(fill->arguments[2].offset, 16u);
  CHECK_EQ(fill->arguments[2].size, 4u);
  CHECK_EQ(fill->arguments[2].valueKind, "by_value");
  const KernelMetadata* hash = metadata.findKernel("kreplay_hash_pages");
  CHECK_EQ(hash->groupSegmentFixedSize, 2048u);  // 256 uint64 partial sums
  CHECK_EQ(metadata.findKernel("kreplay_stencil")->groupSegmentFixedSize, 4 * (1024u + 2));
}

TEST("code objects: a v4 object (fixture) reads as version 4 with metadata 1.1") {
  const std::vector<std::uint8_t> bytes = readFixture("fill-gfx90a-v4.hsaco");
  const CodeObjectMetadata metadata = readCodeObjectMetadata(bytes.data(), bytes.size());
  CHECK_EQ(metadata.codeObjectVersion, 4u);
  CHECK_EQ(metadata.processor, "gfx90a");
  CHECK_EQ(metadata.elfFlags, 0x53Fu);  // mach 0x3f, xnack any (0x100), sramecc any (0x400)
  CHECK(metadata.metadataVersion == (std::vector<std::uint64_t>{1, 1}));
  CHECK_EQ(metadata.kernels.size(), 1u);
  CHECK_EQ(metadata.kernels[0].name, "kreplay_fill");
  CHECK_EQ(metadata.kernels[0].arguments.size(), 3u);
  CHECK_EQ(metadata.kernels[0].arguments[2].typeName, "u32");
}

TEST("code objects: the processor and features come from e_flags") {
  CHECK_EQ(processorOfMach(0x3f), "gfx90a");
  CHECK_EQ(processorOfMach(0x4c), "gfx942");
  CHECK_EQ(processorOfMach(0x41), "gfx1100");
  CHECK_EQ(processorOfMach(0x99), "mach 0x99");
  std::vector<std::uint8_t> bytes = readFixture("fill-gfx90a-v4.hsaco");
  bytes[48] = 0x3f;
  bytes[49] = 0x0a;  // sramecc off (0x800), xnack off (0x200)
  CHECK_EQ(readCodeObjectMetadata(bytes.data(), bytes.size()).targetId, "gfx90a:sramecc-:xnack-");
  bytes[49] = 0x07;  // sramecc any, xnack on
  CHECK_EQ(readCodeObjectMetadata(bytes.data(), bytes.size()).targetId, "gfx90a:xnack+");
}

TEST("code objects: what is not an AMDGPU HSA code object is refused with the reason") {
  const std::vector<std::uint8_t> good = readFixture("fill-gfx90a-v4.hsaco");
  std::vector<std::uint8_t> bytes = good;
  bytes[0] = 0;
  CHECK_THROWS(readCodeObjectMetadata(bytes.data(), bytes.size()), "not an ELF file");
  bytes = good;
  bytes[4] = 1;
  CHECK_THROWS(readCodeObjectMetadata(bytes.data(), bytes.size()), "not a 64-bit");
  bytes = good;
  bytes[18] = 62;  // EM_X86_64
  CHECK_THROWS(readCodeObjectMetadata(bytes.data(), bytes.size()), "EM_AMDGPU");
  bytes = good;
  bytes[8] = 0;  // code object v2
  CHECK_THROWS(readCodeObjectMetadata(bytes.data(), bytes.size()), "ABI version 0");
  CHECK_THROWS(readCodeObjectMetadata(good.data(), 40), "not an ELF file");
  CHECK_THROWS(readCodeObjectMetadata(good.data(), 700), "past its end");
}

TEST("msgpack: every type the metadata uses decodes") {
  // {"a": [1, -2, 200, 70000, true, nil, 1.5], "bb": "x", "c": -40000}
  const std::vector<std::uint8_t> bytes{0x83, 0xa1, 'a',  0x97, 0x01, 0xfe, 0xcc, 200,  0xce, 0x00,
                                        0x01, 0x11, 0x70, 0xc3, 0xc0, 0xcb, 0x3f, 0xf8, 0,    0,
                                        0,    0,    0,    0,    0xd9, 2,    'b',  'b',  0xa1, 'x',
                                        0xa1, 'c',  0xd2, 0xff, 0xff, 0x63, 0xc0};
  const MsgpackValue root = decodeMsgpack(bytes.data(), bytes.size());
  CHECK(root.type == MsgpackValue::Type::Map);
  const MsgpackValue* list = root.find("a");
  CHECK(list && list->items.size() == 7);
  CHECK_EQ(list->items[0].asUnsigned("one"), 1u);
  CHECK(list->items[1].negative);
  CHECK_EQ(static_cast<std::int64_t>(list->items[1].integerBits), -2);
  CHECK_EQ(list->items[2].asUnsigned("200"), 200u);
  CHECK_EQ(list->items[3].asUnsigned("70000"), 70000u);
  CHECK(list->items[4].asBoolean("true"));
  CHECK(list->items[5].type == MsgpackValue::Type::Nil);
  CHECK_EQ(list->items[6].number, 1.5);
  CHECK_EQ(root.find("bb")->asString("bb"), "x");
  CHECK_EQ(static_cast<std::int64_t>(root.find("c")->integerBits), -40000);
  CHECK_THROWS(root.find("c")->asUnsigned(".offset"), ".offset is not a non-negative integer");
  CHECK(root.find("missing") == nullptr);
}

TEST("msgpack: malformed input is an error, never a read past the end") {
  const std::vector<std::uint8_t> truncatedString{0xa5, 'a', 'b'};
  CHECK_THROWS(decodeMsgpack(truncatedString.data(), truncatedString.size()), "truncated");
  const std::vector<std::uint8_t> hugeArray{0xdd, 0xff, 0xff, 0xff, 0xff, 0x01};
  CHECK_THROWS(decodeMsgpack(hugeArray.data(), hugeArray.size()), "truncated");
  const std::vector<std::uint8_t> trailing{0x01, 0x02};
  CHECK_THROWS(decodeMsgpack(trailing.data(), trailing.size()), "1 bytes after the value");
  const std::vector<std::uint8_t> extension{0xd4, 0x01, 0x02};
  CHECK_THROWS(decodeMsgpack(extension.data(), extension.size()), "unsupported type byte 0xd4");
  std::vector<std::uint8_t> deep(100, 0x91);
  deep.push_back(0x01);
  CHECK_THROWS(decodeMsgpack(deep.data(), deep.size()), "nesting deeper than 32");
  CHECK_THROWS(decodeMsgpack(nullptr, 0), "truncated");
}
