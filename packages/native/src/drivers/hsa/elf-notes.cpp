#include "drivers/hsa/elf-notes.hpp"

#include <cstring>

#include "drivers/hsa/msgpack-reader.hpp"

namespace kreplay::hsa {

namespace {

constexpr std::uint32_t kProgramNote = 4;  // PT_NOTE
constexpr std::uint32_t kSectionNote = 7;  // SHT_NOTE

template <class T>
T field(const std::uint8_t* data, std::size_t size, std::uint64_t offset) {
  if (offset > size || sizeof(T) > size - offset)
    throw CodeObjectError("truncated ELF file: a field at byte " + std::to_string(offset) +
                          " is past its end");
  T value;
  std::memcpy(&value, data + offset, sizeof value);
  return value;
}

/** A [offset, offset + bytes) region of the file, checked. */
void checkRegion(std::size_t size, std::uint64_t offset, std::uint64_t bytes, const char* what) {
  if (offset > size || bytes > size - offset)
    throw CodeObjectError(std::string("truncated ELF file: ") + what + " is past its end");
}

std::uint64_t alignUp(std::uint64_t value, std::uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

void readNotesIn(const std::uint8_t* data, std::size_t size, std::uint64_t offset, std::uint64_t bytes,
                 std::uint64_t alignment, std::vector<ElfNote>& notes) {
  checkRegion(size, offset, bytes, "a note region");
  const std::uint64_t padding = alignment == 8 ? 8 : 4;
  std::uint64_t position = 0;
  while (position + 12 <= bytes) {
    const auto nameSize = field<std::uint32_t>(data, size, offset + position);
    const auto descriptorSize = field<std::uint32_t>(data, size, offset + position + 4);
    const auto type = field<std::uint32_t>(data, size, offset + position + 8);
    const std::uint64_t nameAt = position + 12;
    const std::uint64_t descriptorAt = alignUp(nameAt + nameSize, padding);
    const std::uint64_t end = alignUp(descriptorAt + descriptorSize, padding);
    if (descriptorAt + descriptorSize > bytes)
      throw CodeObjectError("malformed ELF note: it overruns its region");
    std::string name(reinterpret_cast<const char*>(data + offset + nameAt), nameSize);
    if (!name.empty() && name.back() == '\0') name.pop_back();
    notes.push_back({std::move(name), type, data + offset + descriptorAt, descriptorSize});
    position = end;
  }
}

}  // namespace

ElfHeader readElfHeader(const std::uint8_t* data, std::size_t size) {
  if (size < 64 || std::memcmp(data,
                               "\x7f"
                               "ELF",
                               4) != 0)
    throw CodeObjectError("not an ELF file");
  if (data[4] != 2) throw CodeObjectError("not a 64-bit ELF file");
  if (data[5] != 1) throw CodeObjectError("not a little-endian ELF file");
  return {data[7], data[8], field<std::uint16_t>(data, size, 16), field<std::uint16_t>(data, size, 18),
          field<std::uint32_t>(data, size, 48)};
}

std::vector<ElfNote> readElfNotes(const std::uint8_t* data, std::size_t size) {
  readElfHeader(data, size);
  std::vector<ElfNote> notes;
  const auto programHeaders = field<std::uint64_t>(data, size, 32);
  const auto programHeaderSize = field<std::uint16_t>(data, size, 54);
  const auto programHeaderCount = field<std::uint16_t>(data, size, 56);
  for (std::uint16_t index = 0; index < programHeaderCount; ++index) {
    const std::uint64_t at = programHeaders + std::uint64_t{index} * programHeaderSize;
    if (field<std::uint32_t>(data, size, at) != kProgramNote) continue;
    readNotesIn(data, size, field<std::uint64_t>(data, size, at + 8),
                field<std::uint64_t>(data, size, at + 32), field<std::uint64_t>(data, size, at + 48), notes);
  }
  if (programHeaderCount > 0 && !notes.empty()) return notes;
  const auto sectionHeaders = field<std::uint64_t>(data, size, 40);
  const auto sectionHeaderSize = field<std::uint16_t>(data, size, 58);
  const auto sectionHeaderCount = field<std::uint16_t>(data, size, 60);
  for (std::uint16_t index = 0; index < sectionHeaderCount; ++index) {
    const std::uint64_t at = sectionHeaders + std::uint64_t{index} * sectionHeaderSize;
    if (field<std::uint32_t>(data, size, at + 4) != kSectionNote) continue;
    readNotesIn(data, size, field<std::uint64_t>(data, size, at + 24),
                field<std::uint64_t>(data, size, at + 32), field<std::uint64_t>(data, size, at + 48), notes);
  }
  return notes;
}

}  // namespace kreplay::hsa
