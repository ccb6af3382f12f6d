// The module-image reader on synthetic cubins and fatbins: what it lists, and that malformed input
// of every kind is a ModuleImageError naming what is wrong, never a crash.
#include <cstring>

#include "capture/module-image.hpp"
#include "capture/test/synthetic-images.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

namespace {

ModuleImageInfo read(const Bytes& bytes) {
  return readModuleImage(bytes.data(), bytes.size());
}

void checkScaleCubin(const CubinInfo& cubin) {
  CHECK_EQ(cubin.architecture, 90u);
  CHECK_EQ(cubin.kernels.size(), std::size_t{1});
  const KernelInfo& kernel = cubin.kernels[0];
  CHECK_EQ(kernel.name, std::string("scale"));
  CHECK_EQ(kernel.parameters.size(), std::size_t{2});
  CHECK_EQ(kernel.parameters[0].index, 0u);
  CHECK_EQ(kernel.parameters[0].offset, 0u);
  CHECK_EQ(kernel.parameters[0].size, 8u);
  CHECK_EQ(kernel.parameters[1].index, 1u);
  CHECK_EQ(kernel.parameters[1].offset, 8u);
  CHECK_EQ(kernel.parameters[1].size, 4u);
  CHECK_EQ(kernel.parameterBufferBytes, 16u);
  CHECK(kernel.parameterBankOffset == std::optional<std::uint32_t>(0x210));
  CHECK(kernel.registers == std::optional<std::uint32_t>(12));
  CHECK_EQ(kernel.codeBytes, std::uint64_t{4});
  CHECK_EQ(cubin.globals.size(), std::size_t{2});
  CHECK_EQ(cubin.globals[0].name, std::string("counter"));
  CHECK_EQ(cubin.globals[0].section, std::string(".nv.global"));
  CHECK(!cubin.globals[0].constant);
  CHECK_EQ(cubin.globals[0].offset, std::uint64_t{4});
  CHECK_EQ(cubin.globals[0].size, std::uint64_t{4});
  CHECK_EQ(cubin.globals[1].name, std::string("coefficients"));
  CHECK(cubin.globals[1].constant);
}

}  // namespace

TEST("module image: a cubin's kernel, parameters, buffer size, registers and globals") {
  const ModuleImageInfo info = read(syntheticCubin().bytes);
  CHECK(!info.fatbin);
  CHECK(!info.hasPtx());
  CHECK_EQ(info.entries.size(), std::size_t{1});
  CHECK(info.entries[0].cubin.has_value());
  checkScaleCubin(*info.entries[0].cubin);
}

TEST("module image: an attribute the reader does not know is skipped and listed once") {
  Bytes twice = {0x03, 0x7e, 0x01, 0x00, 0x04, 0x7d, 0x04, 0x00, 1, 2, 3, 4};
  const CubinInfo cubin = *read(syntheticCubin(8, twice).bytes).entries[0].cubin;
  checkScaleCubin(cubin);
  CHECK_EQ(cubin.unknownAttributes.size(), std::size_t{2});
  CHECK_EQ(cubin.unknownAttributes[0], 0x7eu);
  CHECK_EQ(cubin.unknownAttributes[1], 0x7du);
}

TEST("module image: ELF ABI version 7 keeps the SM version in the low byte of e_flags") {
  CHECK_EQ(read(syntheticCubin(7).bytes).entries[0].cubin->architecture, 90u);
}

TEST("module image: every truncation of a cubin is an error naming what runs past the end") {
  const Bytes whole = syntheticCubin().bytes;
  for (std::size_t size = 0; size < whole.size(); ++size) {
    const Bytes cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(size));
    bool threw = false;
    try {
      read(cut);
    } catch (const ModuleImageError& error) {
      threw = true;
      const std::string message = error.what();
      if (size >= 4 && message.find("truncated image") == std::string::npos) {
        ::kreplay::hsa::test::fail(__FILE__, __LINE__, "at " + std::to_string(size) + " bytes: " + message);
      }
    }
    if (!threw)
      ::kreplay::hsa::test::fail(__FILE__, __LINE__,
                                 "a cubin cut to " + std::to_string(size) + " bytes was read");
  }
}

TEST("module image: a section whose contents run past the end is named") {
  SyntheticCubin cubin = syntheticCubin();
  const std::uint64_t huge = 1ull << 40;
  std::memcpy(&cubin.bytes[cubin.kernelInfoHeader + 32], &huge, 8);
  CHECK_THROWS(read(cubin.bytes), "contents of section 5");
}

TEST("module image: a sized record running past its section is named with its offset") {
  SyntheticCubin cubin = syntheticCubin(8, {0x04, 0x17, 0x40, 0x00});
  CHECK_THROWS(read(cubin.bytes), "truncated image: .nv.info.scale record at offset");
}

TEST("module image: an unknown record format stops with the section and offset") {
  SyntheticCubin cubin = syntheticCubin(8, {0x09, 0x17, 0x00, 0x00});
  CHECK_THROWS(read(cubin.bytes), ".nv.info.scale record at offset 60 has format 9");
}

TEST("module image: a parameter described twice or past the buffer's end is an error") {
  Bytes again = {0x04, 0x17, 0x0c, 0x00, 0, 0, 0, 0, 1, 0, 8, 0, 0x00, 0xf0, 0x11, 0x00};
  CHECK_THROWS(read(syntheticCubin(8, again).bytes), "parameter 1 of scale is described twice");
  Bytes beyond = {0x04, 0x17, 0x0c, 0x00, 0, 0, 0, 0, 2, 0, 16, 0, 0x00, 0xf0, 0x21, 0x00};
  CHECK_THROWS(read(syntheticCubin(8, beyond).bytes),
               "the parameter buffer is 16 bytes but a parameter ends at byte 24");
}

TEST("module image: not a cubin, not a CUDA ELF, not a fatbin") {
  CHECK_THROWS(read({}), "not a module image");
  CHECK_THROWS(read({'h', 'e', 'l', 'l', 'o'}), "not a module image");
  Bytes other = syntheticCubin().bytes;
  other[18] = 62;  // EM_X86_64
  CHECK_THROWS(read(other), "not a CUDA ELF: e_machine is 62");
  Bytes narrow = syntheticCubin().bytes;
  narrow[4] = 1;
  CHECK_THROWS(read(narrow), "not a 64-bit little-endian ELF");
}

TEST("module image: a fatbin's cubins, PTX and compressed entries") {
  const Bytes cubin = syntheticCubin().bytes;
  const Bytes fatbin = syntheticFatbin({{2, 80, 0x11, cubin},
                                        {2, 90, 0x8011, {0x28, 0xb5, 0x2f, 0xfd, 1, 2}},
                                        {1, 90, 0x8011, {0x28, 0xb5, 0x2f, 0xfd}},
                                        {7, 90, 0x11, {1, 2, 3}}});
  const ModuleImageInfo info = read(fatbin);
  CHECK(info.fatbin);
  CHECK(info.hasPtx());
  CHECK_EQ(info.entries.size(), std::size_t{3});  // the entry of kind 7 is skipped
  CHECK(info.entries[0].kind == EntryKind::Cubin);
  CHECK_EQ(info.entries[0].architecture, 80u);
  CHECK_EQ(info.entries[0].offset, std::uint64_t{16 + 64});
  checkScaleCubin(*info.entries[0].cubin);
  CHECK(info.entries[1].compression == Compression::Zstd);
  CHECK(!info.entries[1].cubin.has_value());
  CHECK_EQ(info.entries[1].bytes, std::uint64_t{6});
  CHECK(info.entries[2].kind == EntryKind::Ptx);
  CHECK_EQ(info.entries[2].architecture, 90u);
}

TEST("module image: fatbins back to back, then zero padding") {
  Bytes both = syntheticFatbin({{2, 80, 0x11, syntheticCubin().bytes}});
  const Bytes second = syntheticFatbin({{1, 90, 0x11, {'.', 'v', 'e', 'r'}}});
  both.insert(both.end(), second.begin(), second.end());
  both.insert(both.end(), 8, 0);
  const ModuleImageInfo info = read(both);
  CHECK_EQ(info.entries.size(), std::size_t{2});
  both.push_back(1);
  CHECK_THROWS(read(both), "neither another fatbin nor zero padding");
}

TEST("module image: every truncation of a fatbin is an error") {
  const Bytes whole =
      syntheticFatbin({{2, 90, 0x11, syntheticCubin().bytes}, {1, 90, 0x11, {'p', 't', 'x', 0}}});
  for (std::size_t size = 4; size < whole.size(); ++size) {
    const Bytes cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(size));
    CHECK_THROWS(read(cut), "truncated image");
  }
}

TEST("module image: a malformed cubin inside a fatbin names its entry") {
  Bytes cubin = syntheticCubin().bytes;
  cubin[18] = 3;
  CHECK_THROWS(read(syntheticFatbin({{2, 90, 0x11, cubin}})),
               "fatbin entry at offset 16 (sm_90): not a CUDA ELF");
}
