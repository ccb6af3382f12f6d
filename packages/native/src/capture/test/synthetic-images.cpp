#include "capture/test/synthetic-images.hpp"

#include <algorithm>
#include <cstring>

namespace kreplay::capture::test {

namespace {

template <class T>
void put(Bytes& out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i)));
}

template <class T>
void putAt(Bytes& out, std::size_t at, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out[at + i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
}

struct Names {
  Bytes table{0};
  std::uint32_t add(const std::string& name) {
    const auto at = static_cast<std::uint32_t>(table.size());
    table.insert(table.end(), name.begin(), name.end());
    table.push_back(0);
    return at;
  }
};

void record(Bytes& out, std::uint8_t format, std::uint8_t attribute, std::uint16_t value,
            const Bytes& payload = {}) {
  out.push_back(format);
  out.push_back(attribute);
  put<std::uint16_t>(out, value);
  out.insert(out.end(), payload.begin(), payload.end());
}

Bytes kparam(std::uint16_t ordinal, std::uint16_t offset, std::uint32_t size) {
  Bytes payload;
  put<std::uint32_t>(payload, 0);
  put<std::uint16_t>(payload, ordinal);
  put<std::uint16_t>(payload, offset);
  put<std::uint32_t>(payload, (size << 18) | 0x1f000);
  return payload;
}

}  // namespace

SyntheticCubin syntheticCubin(std::uint8_t abiVersion, const Bytes& extra) {
  struct Section {
    std::string name;
    std::uint32_t type;
    Bytes contents;
    std::uint64_t noBitsSize = 0;
    std::uint32_t link = 0;
    std::uint64_t entrySize = 0;
  };
  Names strings;
  Bytes symbols(24, 0);
  auto symbol = [&](const std::string& name, std::uint8_t info, std::uint8_t other, std::uint16_t section,
                    std::uint64_t value, std::uint64_t size) {
    put<std::uint32_t>(symbols, strings.add(name));
    symbols.push_back(info);
    symbols.push_back(other);
    put<std::uint16_t>(symbols, section);
    put<std::uint64_t>(symbols, value);
    put<std::uint64_t>(symbols, size);
  };
  symbol("scale", 0x12, 0x10, 6, 0, 4);      // GLOBAL FUNC, an entry function in .text.scale
  symbol("counter", 0x01, 0, 7, 4, 4);       // LOCAL OBJECT in .nv.global
  symbol("coefficients", 0x01, 0, 8, 0, 8);  // LOCAL OBJECT in .nv.constant3
  symbol("helper", 0x12, 0x00, 6, 0, 4);     // a device function: not a kernel

  Bytes moduleInfo;
  Bytes regcount;
  put<std::uint32_t>(regcount, 1);
  put<std::uint32_t>(regcount, 12);
  record(moduleInfo, 0x04, 0x2f, 8, regcount);

  Bytes kernelInfo;
  record(kernelInfo, 0x04, 0x37, 4, {0x82, 0, 0, 0});
  record(kernelInfo, 0x04, 0x17, 12, kparam(1, 8, 4));
  record(kernelInfo, 0x04, 0x17, 12, kparam(0, 0, 8));
  record(kernelInfo, 0x03, 0x7e, 5);
  record(kernelInfo, 0x03, 0x19, 16);
  Bytes cbank;
  put<std::uint32_t>(cbank, 9);
  put<std::uint16_t>(cbank, 0x210);
  put<std::uint16_t>(cbank, 16);
  record(kernelInfo, 0x04, 0x0a, 8, cbank);
  kernelInfo.insert(kernelInfo.end(), extra.begin(), extra.end());

  std::vector<Section> sections = {
      {"", 0, {}},
      {".shstrtab", 3, {}},
      {".strtab", 3, {}},
      {".symtab", 2, symbols, 0, 2, 24},
      {".nv.info", 0x70000000, moduleInfo},
      {".nv.info.scale", 0x70000000, kernelInfo},
      {".text.scale", 1, {0, 0, 0, 0}},
      {".nv.global", 8, {}, 16},
      {".nv.constant3", 1, Bytes(8, 0)},
  };
  sections[2].contents = strings.table;
  Names sectionNames;
  std::vector<std::uint32_t> nameOffsets;
  for (const auto& section : sections)
    nameOffsets.push_back(section.name.empty() ? 0 : sectionNames.add(section.name));
  sections[1].contents = sectionNames.table;

  SyntheticCubin cubin;
  Bytes& out = cubin.bytes;
  out.assign(64, 0);
  const char ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41};
  std::memcpy(out.data(), ident, sizeof ident);
  out[8] = abiVersion;
  putAt<std::uint16_t>(out, 16, 2);
  putAt<std::uint16_t>(out, 18, 190);
  putAt<std::uint32_t>(out, 20, 1);
  putAt<std::uint32_t>(out, 48, abiVersion >= 8 ? 0x6005a04u : 0x0050005au);
  putAt<std::uint16_t>(out, 52, 64);
  putAt<std::uint16_t>(out, 58, 64);
  putAt<std::uint16_t>(out, 60, static_cast<std::uint16_t>(sections.size()));
  putAt<std::uint16_t>(out, 62, 1);
  std::vector<std::uint64_t> offsets;
  for (const auto& section : sections) {
    while (out.size() % 8 != 0) out.push_back(0);
    offsets.push_back(out.size());
    out.insert(out.end(), section.contents.begin(), section.contents.end());
  }
  while (out.size() % 8 != 0) out.push_back(0);
  putAt<std::uint64_t>(out, 40, out.size());
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const auto& section = sections[i];
    if (section.name == ".nv.info.scale") {
      cubin.kernelInfoOffset = offsets[i];
      cubin.kernelInfoHeader = out.size();
    }
    put<std::uint32_t>(out, nameOffsets[i]);
    put<std::uint32_t>(out, section.type);
    put<std::uint64_t>(out, 0);
    put<std::uint64_t>(out, 0);
    put<std::uint64_t>(out, i == 0 ? 0 : offsets[i]);
    put<std::uint64_t>(out, section.type == 8 ? section.noBitsSize : section.contents.size());
    put<std::uint32_t>(out, section.link);
    put<std::uint32_t>(out, 0);
    put<std::uint64_t>(out, 8);
    put<std::uint64_t>(out, section.entrySize);
  }
  return cubin;
}

Bytes lz4Literals(const Bytes& bytes) {
  Bytes out;
  std::size_t length = bytes.size();
  out.push_back(static_cast<std::uint8_t>(std::min<std::size_t>(length, 15) << 4));
  if (length >= 15) {
    for (length -= 15; length >= 255; length -= 255) out.push_back(255);
    out.push_back(static_cast<std::uint8_t>(length));
  }
  out.insert(out.end(), bytes.begin(), bytes.end());
  return out;
}

Bytes syntheticFatbin(const std::vector<SyntheticEntry>& entries) {
  Bytes body;
  for (const auto& entry : entries) {
    Bytes payload = entry.payload;
    const std::uint32_t stored = static_cast<std::uint32_t>(payload.size());
    while (payload.size() % 8 != 0) payload.push_back(0);
    put<std::uint16_t>(body, entry.kind);
    put<std::uint16_t>(body, 0x0101);
    put<std::uint32_t>(body, 64);
    put<std::uint64_t>(body, payload.size());
    put<std::uint32_t>(body, entry.flags & 0xa000 ? stored : 0);
    put<std::uint32_t>(body, 0);
    put<std::uint16_t>(body, 8);
    put<std::uint16_t>(body, 1);
    put<std::uint32_t>(body, entry.architecture);
    put<std::uint64_t>(body, 0);
    put<std::uint64_t>(body, entry.flags);
    put<std::uint64_t>(body, 0);
    put<std::uint64_t>(body, entry.uncompressedBytes);
    body.insert(body.end(), payload.begin(), payload.end());
  }
  Bytes out;
  put<std::uint32_t>(out, 0xBA55ED50);
  put<std::uint16_t>(out, 1);
  put<std::uint16_t>(out, 16);
  put<std::uint64_t>(out, body.size());
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

}  // namespace kreplay::capture::test
