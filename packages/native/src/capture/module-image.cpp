// Reads kernels, parameter layouts and globals out of cubins and fatbins. See README.md for the
// layouts: ELF64, the .nv.info attribute records, the fatbin container.
#include "capture/module-image.hpp"

#include "capture/lz4-block.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

namespace kreplay::capture {

namespace {

constexpr std::uint16_t kMachineCuda = 190;       // EM_CUDA
constexpr std::uint32_t kSectionSymbolTable = 2;  // SHT_SYMTAB
constexpr std::uint32_t kSectionNoBits = 8;       // SHT_NOBITS
constexpr std::uint8_t kSymbolFunction = 2;       // STT_FUNC
constexpr std::uint8_t kSymbolObject = 1;         // STT_OBJECT
constexpr std::uint8_t kEntryFunction = 0x10;     // st_other bit of a kernel (an entry function)

// .nv.info record formats and the attributes this reader uses.
constexpr std::uint8_t kFormatSizedValue = 0x04;         // EIFMT_SVAL: u16 size, then that many bytes
constexpr std::uint8_t kAttributeParamCbank = 0x0a;      // EIATTR_PARAM_CBANK
constexpr std::uint8_t kAttributeKparamInfo = 0x17;      // EIATTR_KPARAM_INFO
constexpr std::uint8_t kAttributeCbankParamSize = 0x19;  // EIATTR_CBANK_PARAM_SIZE
constexpr std::uint8_t kAttributeRegisterCount = 0x2f;   // EIATTR_REGCOUNT
// The attributes nvcc emits that this reader has no use for: not reported as unknown.
constexpr std::uint8_t kKnownUnused[] = {0x04, 0x05, 0x0c, 0x10, 0x11, 0x12, 0x1b, 0x1c, 0x1d,
                                         0x23, 0x28, 0x2a, 0x2d, 0x31, 0x36, 0x37, 0x50, 0x5f};

constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;
constexpr std::uint16_t kFatbinEntryPtx = 1;
constexpr std::uint16_t kFatbinEntryElf = 2;
constexpr std::uint64_t kFatbinFlagLz4 = 0x2000;
constexpr std::uint64_t kFatbinFlagZstd = 0x8000;
// A bound on a compressed cubin's declared size, so that a damaged header cannot ask for any memory.
constexpr std::uint64_t kMaximumCubinBytes = std::uint64_t{1} << 32;

struct Section {
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
  std::uint64_t entrySize = 0;
};

struct Symbol {
  std::string name;
  std::uint8_t info = 0;
  std::uint8_t other = 0;
  std::uint16_t sectionIndex = 0;
  std::uint64_t value = 0;
  std::uint64_t size = 0;
};

std::string stringAt(const ByteReader& image, const Section& table, std::uint64_t index, const char* what) {
  if (index >= table.size)
    throw ModuleImageError(std::string(what) + " name offset " + std::to_string(index) +
                           " is outside its string table");
  const std::uint8_t* begin = image.data() + table.offset + index;
  const void* end = std::memchr(begin, 0, static_cast<std::size_t>(table.size - index));
  if (end == nullptr)
    throw ModuleImageError(std::string(what) + " name at offset " + std::to_string(index) +
                           " is not terminated inside its string table");
  return std::string(reinterpret_cast<const char*>(begin), static_cast<const std::uint8_t*>(end) - begin);
}

std::vector<Section> readSections(const ByteReader& image) {
  const std::uint64_t tableOffset = image.u64(40, "ELF header e_shoff");
  const std::uint16_t entrySize = image.u16(58, "ELF header e_shentsize");
  const std::uint16_t count = image.u16(60, "ELF header e_shnum");
  const std::uint16_t namesIndex = image.u16(62, "ELF header e_shstrndx");
  if (count == 0) return {};
  if (entrySize < 64)
    throw ModuleImageError("ELF section header size " + std::to_string(entrySize) +
                           " is smaller than 64 bytes");
  image.require(tableOffset, static_cast<std::uint64_t>(entrySize) * count, "ELF section header table");
  std::vector<Section> sections(count);
  std::vector<std::uint32_t> nameOffsets(count);
  for (std::uint16_t i = 0; i < count; ++i) {
    const std::uint64_t at = tableOffset + static_cast<std::uint64_t>(i) * entrySize;
    nameOffsets[i] = image.u32(at, "section sh_name");
    sections[i].type = image.u32(at + 4, "section sh_type");
    sections[i].offset = image.u64(at + 24, "section sh_offset");
    sections[i].size = image.u64(at + 32, "section sh_size");
    sections[i].link = image.u32(at + 40, "section sh_link");
    sections[i].entrySize = image.u64(at + 56, "section sh_entsize");
    if (sections[i].type != kSectionNoBits && i != 0) {
      image.require(sections[i].offset, sections[i].size,
                    ("contents of section " + std::to_string(i)).c_str());
    }
  }
  if (namesIndex >= count)
    throw ModuleImageError("ELF e_shstrndx " + std::to_string(namesIndex) + " is not a section (there are " +
                           std::to_string(count) + ")");
  for (std::uint16_t i = 1; i < count; ++i)
    sections[i].name = stringAt(image, sections[namesIndex], nameOffsets[i], "section");
  return sections;
}

std::vector<Symbol> readSymbols(const ByteReader& image, const std::vector<Section>& sections) {
  std::vector<Symbol> symbols;
  for (const Section& table : sections) {
    if (table.type != kSectionSymbolTable) continue;
    if (table.entrySize < 24)
      throw ModuleImageError("symbol table entry size " + std::to_string(table.entrySize) +
                             " is smaller than 24 bytes");
    if (table.link >= sections.size())
      throw ModuleImageError("symbol table's string table " + std::to_string(table.link) +
                             " is not a section");
    const Section& names = sections[table.link];
    for (std::uint64_t at = table.offset; at + table.entrySize <= table.offset + table.size;
         at += table.entrySize) {
      Symbol symbol;
      symbol.info = image.u8(at + 4, "symbol st_info");
      symbol.other = image.u8(at + 5, "symbol st_other");
      symbol.sectionIndex = image.u16(at + 6, "symbol st_shndx");
      symbol.value = image.u64(at + 8, "symbol st_value");
      symbol.size = image.u64(at + 16, "symbol st_size");
      symbol.name = stringAt(image, names, image.u32(at, "symbol st_name"), "symbol");
      symbols.push_back(std::move(symbol));
    }
  }
  return symbols;
}

/** Calls visit(attribute, payload reader, value) for each record of an .nv.info section. */
template <class Visit>
void forEachAttribute(const ByteReader& image, const Section& section, CubinInfo& cubin, Visit visit) {
  const ByteReader records = image.slice(section.offset, section.size, section.name.c_str());
  std::uint64_t at = 0;
  while (at < records.size()) {
    const std::string where = section.name + " record at offset " + std::to_string(at);
    const std::uint8_t format = records.u8(at, where.c_str());
    const std::uint8_t attribute = records.u8(at + 1, where.c_str());
    const std::uint16_t value = records.u16(at + 2, where.c_str());
    std::uint64_t payloadBytes = 0;
    if (format == kFormatSizedValue) {
      payloadBytes = value;
      records.require(at + 4, payloadBytes, where.c_str());
    } else if (format < 1 || format > 3) {
      throw ModuleImageError(where + " has format " + std::to_string(format) +
                             ", which is none of EIFMT_NVAL, BVAL, HVAL, SVAL (1-4)");
    }
    const bool used = visit(attribute, records.slice(at + 4, payloadBytes, where.c_str()), value, where);
    const bool knownUnused =
        std::find(std::begin(kKnownUnused), std::end(kKnownUnused), attribute) != std::end(kKnownUnused);
    if (!used && !knownUnused &&
        std::find(cubin.unknownAttributes.begin(), cubin.unknownAttributes.end(), attribute) ==
            cubin.unknownAttributes.end()) {
      cubin.unknownAttributes.push_back(attribute);
    }
    at += 4 + payloadBytes;
  }
}

void readKernelAttributes(const ByteReader& image, const Section& section, KernelInfo& kernel,
                          CubinInfo& cubin) {
  std::optional<std::uint32_t> declaredBytes;
  forEachAttribute(
      image, section, cubin,
      [&](std::uint8_t attribute, const ByteReader& payload, std::uint16_t value, const std::string& where) {
        if (attribute == kAttributeKparamInfo) {
          if (payload.size() < 12)
            throw ModuleImageError(where + ": EIATTR_KPARAM_INFO holds " + std::to_string(payload.size()) +
                                   " bytes, not 12");
          KernelParameterInfo parameter;
          parameter.index = payload.u16(4, "EIATTR_KPARAM_INFO ordinal");
          parameter.offset = payload.u16(6, "EIATTR_KPARAM_INFO offset");
          parameter.size = (payload.u32(8, "EIATTR_KPARAM_INFO flags") >> 18) & 0x3fff;
          for (const auto& existing : kernel.parameters) {
            if (existing.index == parameter.index)
              throw ModuleImageError(where + ": parameter " + std::to_string(parameter.index) + " of " +
                                     kernel.name + " is described twice");
          }
          kernel.parameters.push_back(parameter);
          return true;
        }
        if (attribute == kAttributeCbankParamSize) {
          declaredBytes = value;
          return true;
        }
        if (attribute == kAttributeParamCbank) {
          if (payload.size() < 8)
            throw ModuleImageError(where + ": EIATTR_PARAM_CBANK holds " + std::to_string(payload.size()) +
                                   " bytes, not 8");
          kernel.parameterBankOffset = payload.u16(4, "EIATTR_PARAM_CBANK offset");
          if (!declaredBytes) declaredBytes = payload.u16(6, "EIATTR_PARAM_CBANK size");
          return true;
        }
        return false;
      });
  std::sort(kernel.parameters.begin(), kernel.parameters.end(),
            [](const auto& a, const auto& b) { return a.index < b.index; });
  std::uint32_t end = 0;
  for (const auto& parameter : kernel.parameters) end = std::max(end, parameter.offset + parameter.size);
  if (declaredBytes && *declaredBytes < end) {
    throw ModuleImageError(section.name + ": the parameter buffer is " + std::to_string(*declaredBytes) +
                           " bytes but a parameter ends at byte " + std::to_string(end));
  }
  kernel.parameterBufferBytes = declaredBytes ? *declaredBytes : end;
}

bool isGlobalSection(const std::string& name) {
  if (name == ".nv.global" || name.rfind(".nv.global.", 0) == 0) return true;
  return name.rfind(".nv.constant", 0) == 0 && name.rfind(".nv.constant0", 0) != 0;
}

}  // namespace

CubinInfo readCubin(const std::uint8_t* data, std::size_t size) {
  const ByteReader image(data, size);
  image.require(0, 64, "ELF header");
  if (std::memcmp(data,
                  "\x7f"
                  "ELF",
                  4) != 0)
    throw ModuleImageError("not an ELF image (no \\x7fELF magic)");
  if (data[4] != 2 || data[5] != 1)
    throw ModuleImageError("not a 64-bit little-endian ELF (EI_CLASS " + std::to_string(data[4]) +
                           ", EI_DATA " + std::to_string(data[5]) + ")");
  const std::uint16_t machine = image.u16(18, "ELF header e_machine");
  if (machine != kMachineCuda)
    throw ModuleImageError("not a CUDA ELF: e_machine is " + std::to_string(machine) + ", not 190 (EM_CUDA)");

  CubinInfo cubin;
  cubin.abiVersion = data[8];
  const std::uint32_t flags = image.u32(48, "ELF header e_flags");
  cubin.architecture = cubin.abiVersion >= 8 ? (flags >> 8) & 0xff : flags & 0xff;

  // The program headers are not used, but a cubin whose table is cut short is one the driver refuses.
  image.require(image.u64(32, "ELF header e_phoff"),
                std::uint64_t{image.u16(54, "ELF header e_phentsize")} * image.u16(56, "ELF header e_phnum"),
                "ELF program header table");
  const std::vector<Section> sections = readSections(image);
  const std::vector<Symbol> symbols = readSymbols(image, sections);
  std::map<std::string, const Section*> sectionsByName;
  for (const Section& section : sections) sectionsByName.emplace(section.name, &section);

  for (const Symbol& symbol : symbols) {
    const std::uint8_t type = symbol.info & 0xf;
    if (type == kSymbolFunction && (symbol.other & kEntryFunction) != 0 && symbol.sectionIndex != 0) {
      KernelInfo kernel;
      kernel.name = symbol.name;
      kernel.codeBytes = symbol.size != 0 || symbol.sectionIndex >= sections.size() ? symbol.size
                                                                                   : sections[symbol.sectionIndex].size;
      const auto found = sectionsByName.find(".nv.info." + symbol.name);
      if (found != sectionsByName.end()) readKernelAttributes(image, *found->second, kernel, cubin);
      cubin.kernels.push_back(std::move(kernel));
    } else if (type == kSymbolObject && symbol.sectionIndex != 0 && symbol.sectionIndex < sections.size() &&
               isGlobalSection(sections[symbol.sectionIndex].name)) {
      const std::string& section = sections[symbol.sectionIndex].name;
      cubin.globals.push_back(
          {symbol.name, section, section.rfind(".nv.constant", 0) == 0, symbol.value, symbol.size});
    }
  }

  const auto moduleInfo = sectionsByName.find(".nv.info");
  if (moduleInfo != sectionsByName.end()) {
    forEachAttribute(
        image, *moduleInfo->second, cubin,
        [&](std::uint8_t attribute, const ByteReader& payload, std::uint16_t, const std::string&) {
          if (attribute != kAttributeRegisterCount || payload.size() < 8)
            return attribute == kAttributeRegisterCount;
          const std::uint32_t symbolIndex = payload.u32(0, "EIATTR_REGCOUNT function");
          if (symbolIndex >= symbols.size()) return true;
          for (KernelInfo& kernel : cubin.kernels) {
            if (kernel.name == symbols[symbolIndex].name)
              kernel.registers = payload.u32(4, "EIATTR_REGCOUNT count");
          }
          return true;
        });
  }
  return cubin;
}

namespace {

void readFatbin(const ByteReader& image, std::uint64_t start, ModuleImageInfo& info) {
  const std::uint16_t headerBytes = image.u16(start + 6, "fatbin header size");
  const std::uint64_t bodyBytes = image.u64(start + 8, "fatbin size");
  if (headerBytes < 16)
    throw ModuleImageError("fatbin header at offset " + std::to_string(start) + " says it is " +
                           std::to_string(headerBytes) + " bytes, fewer than 16");
  image.require(start + headerBytes, bodyBytes, "fatbin entries");
  const std::uint64_t end = start + headerBytes + bodyBytes;
  for (std::uint64_t at = start + headerBytes; at < end;) {
    const std::string where = "fatbin entry at offset " + std::to_string(at);
    const std::uint16_t kind = image.u16(at, where.c_str());
    const std::uint32_t entryHeaderBytes = image.u32(at + 4, where.c_str());
    const std::uint64_t payloadBytes = image.u64(at + 8, where.c_str());
    if (entryHeaderBytes < 64)
      throw ModuleImageError(where + " has a " + std::to_string(entryHeaderBytes) +
                             "-byte header, fewer than 64");
    if (entryHeaderBytes > end - at || payloadBytes > end - at - entryHeaderBytes) {
      throw ModuleImageError("truncated image: " + where + " (" + std::to_string(entryHeaderBytes) + " + " +
                             std::to_string(payloadBytes) +
                             " bytes) runs past the end of its fatbin at offset " + std::to_string(end));
    }
    const std::uint32_t compressedBytes = image.u32(at + 16, where.c_str());
    const std::uint64_t flags = image.u64(at + 40, where.c_str());
    ModuleEntry entry;
    entry.architecture = image.u32(at + 28, where.c_str());
    entry.offset = at + entryHeaderBytes;
    entry.bytes = payloadBytes;
    entry.compression = (flags & kFatbinFlagZstd) != 0  ? Compression::Zstd
                        : (flags & kFatbinFlagLz4) != 0 ? Compression::Lz4
                                                        : Compression::None;
    if (entry.compression != Compression::None && compressedBytes <= payloadBytes)
      entry.bytes = compressedBytes;
    if (kind == kFatbinEntryPtx) {
      entry.kind = EntryKind::Ptx;
    } else if (kind == kFatbinEntryElf) {
      entry.kind = EntryKind::Cubin;
      try {
        if (entry.compression == Compression::None) {
          entry.cubin = readCubin(image.data() + entry.offset, static_cast<std::size_t>(payloadBytes));
        } else if (entry.compression == Compression::Lz4) {
          const std::uint64_t uncompressedBytes = image.u64(at + 56, where.c_str());
          if (compressedBytes > payloadBytes || uncompressedBytes > kMaximumCubinBytes) {
            throw ModuleImageError("its LZ4 sizes (" + std::to_string(compressedBytes) + " bytes stored, " +
                                   std::to_string(uncompressedBytes) + " bytes decoded) do not fit");
          }
          const std::vector<std::uint8_t> cubin = decompressLz4Block(
              image.data() + entry.offset, compressedBytes, static_cast<std::size_t>(uncompressedBytes));
          entry.cubin = readCubin(cubin.data(), cubin.size());
        }
      } catch (const ModuleImageError& error) {
        throw ModuleImageError(where + " (sm_" + std::to_string(entry.architecture) + "): " + error.what());
      }
    } else {
      at += entryHeaderBytes + payloadBytes;
      continue;  // an entry kind this reader does not know: skipped
    }
    info.entries.push_back(std::move(entry));
    at += entryHeaderBytes + payloadBytes;
  }
}

}  // namespace

bool ModuleImageInfo::hasPtx() const {
  return std::any_of(entries.begin(), entries.end(),
                     [](const ModuleEntry& entry) { return entry.kind == EntryKind::Ptx; });
}

ModuleImageInfo readModuleImage(const std::uint8_t* data, std::size_t size) {
  const ByteReader image(data, size);
  ModuleImageInfo info;
  if (size >= 4 && std::memcmp(data,
                               "\x7f"
                               "ELF",
                               4) == 0) {
    ModuleEntry entry;
    entry.cubin = readCubin(data, size);
    entry.architecture = entry.cubin->architecture;
    entry.bytes = size;
    info.entries.push_back(std::move(entry));
    return info;
  }
  if (size < 4 || image.u32(0, "fatbin magic") != kFatbinMagic) {
    throw ModuleImageError(
        "not a module image: neither an ELF cubin (\\x7fELF) nor a fatbin (magic 0xba55ed50)");
  }
  info.fatbin = true;
  std::uint64_t at = 0;
  while (at < size) {
    if (size - at < 4 || image.u32(at, "fatbin magic") != kFatbinMagic) {
      if (std::all_of(data + at, data + size, [](std::uint8_t byte) { return byte == 0; })) break;  // padding
      throw ModuleImageError("the bytes at offset " + std::to_string(at) +
                             " after a fatbin are neither another fatbin nor zero padding");
    }
    image.require(at, 16, "fatbin header");
    readFatbin(image, at, info);
    at += image.u16(at + 6, "fatbin header size") + image.u64(at + 8, "fatbin size");
  }
  return info;
}

const char* compressionName(Compression compression) {
  switch (compression) {
    case Compression::None:
      return "none";
    case Compression::Lz4:
      return "lz4";
    case Compression::Zstd:
      return "zstd";
    case Compression::Unknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace kreplay::capture
