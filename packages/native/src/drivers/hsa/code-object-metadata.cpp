#include "drivers/hsa/code-object-metadata.hpp"

#include <cstdio>

#include "drivers/hsa/elf-notes.hpp"
#include "drivers/hsa/msgpack-reader.hpp"

namespace kreplay::hsa {

namespace {

constexpr std::uint32_t kMachMask = 0xff;
constexpr std::uint32_t kXnackMask = 0x300;    // EF_AMDGPU_FEATURE_XNACK_V4
constexpr std::uint32_t kSrameccMask = 0xc00;  // EF_AMDGPU_FEATURE_SRAMECC_V4

/** ":name+" / ":name-" for a v4+ feature setting ON (3) or OFF (2); nothing for ANY or UNSUPPORTED. */
std::string featureSuffix(const char* name, std::uint32_t setting) {
  if (setting == 3) return std::string(":") + name + "+";
  if (setting == 2) return std::string(":") + name + "-";
  return "";
}

std::uint64_t required(const MsgpackValue& map, const char* key) {
  const MsgpackValue* value = map.find(key);
  if (!value) throw CodeObjectError(std::string("kernel metadata lacks ") + key);
  return value->asUnsigned(key);
}

std::string optionalString(const MsgpackValue& map, const char* key) {
  const MsgpackValue* value = map.find(key);
  return value ? value->asString(key) : std::string();
}

KernelArgumentMetadata readArgument(const MsgpackValue& map) {
  if (map.type != MsgpackValue::Type::Map) throw CodeObjectError("a kernel argument is not a map");
  KernelArgumentMetadata argument;
  argument.name = optionalString(map, ".name");
  argument.typeName = optionalString(map, ".type_name");
  argument.offset = required(map, ".offset");
  argument.size = required(map, ".size");
  const MsgpackValue* kind = map.find(".value_kind");
  if (!kind) throw CodeObjectError("a kernel argument lacks .value_kind");
  argument.valueKind = kind->asString(".value_kind");
  argument.addressSpace = optionalString(map, ".address_space");
  if (const MsgpackValue* isConst = map.find(".is_const")) argument.isConst = isConst->asBoolean(".is_const");
  return argument;
}

KernelMetadata readKernel(const MsgpackValue& map) {
  if (map.type != MsgpackValue::Type::Map) throw CodeObjectError("an amdhsa.kernels entry is not a map");
  KernelMetadata kernel;
  const MsgpackValue* name = map.find(".name");
  const MsgpackValue* symbol = map.find(".symbol");
  if (!name || !symbol) throw CodeObjectError("a kernel lacks .name or .symbol");
  kernel.name = name->asString(".name");
  kernel.symbol = symbol->asString(".symbol");
  kernel.kernargSegmentSize = required(map, ".kernarg_segment_size");
  kernel.kernargSegmentAlign = required(map, ".kernarg_segment_align");
  kernel.groupSegmentFixedSize = required(map, ".group_segment_fixed_size");
  kernel.privateSegmentFixedSize = required(map, ".private_segment_fixed_size");
  kernel.wavefrontSize = required(map, ".wavefront_size");
  kernel.maxFlatWorkgroupSize = required(map, ".max_flat_workgroup_size");
  if (const MsgpackValue* stack = map.find(".uses_dynamic_stack"))
    kernel.usesDynamicStack = stack->asBoolean(".uses_dynamic_stack");
  if (const MsgpackValue* arguments = map.find(".args")) {
    if (arguments->type != MsgpackValue::Type::Array) throw CodeObjectError(".args is not an array");
    for (const auto& argument : arguments->items) kernel.arguments.push_back(readArgument(argument));
  }
  return kernel;
}

}  // namespace

std::string processorOfMach(std::uint32_t mach) {
  switch (mach) {
    case 0x2c:
      return "gfx900";
    case 0x2f:
      return "gfx906";
    case 0x30:
      return "gfx908";
    case 0x36:
      return "gfx1030";
    case 0x3f:
      return "gfx90a";
    case 0x40:
      return "gfx940";
    case 0x41:
      return "gfx1100";
    case 0x46:
      return "gfx1101";
    case 0x47:
      return "gfx1102";
    case 0x48:
      return "gfx1200";
    case 0x4b:
      return "gfx941";
    case 0x4c:
      return "gfx942";
    case 0x4e:
      return "gfx1201";
  }
  char text[16];
  std::snprintf(text, sizeof text, "mach 0x%02x", static_cast<unsigned>(mach));
  return text;
}

const KernelMetadata* CodeObjectMetadata::findKernel(const std::string& name) const {
  for (const auto& kernel : kernels) {
    if (kernel.name == name) return &kernel;
  }
  return nullptr;
}

CodeObjectMetadata readCodeObjectMetadata(const std::uint8_t* data, std::size_t size) {
  const ElfHeader header = readElfHeader(data, size);
  if (header.machine != kElfMachineAmdgpu)
    throw CodeObjectError("not an AMDGPU ELF file (e_machine is not EM_AMDGPU)");
  if (header.osAbi != kElfOsAbiAmdgpuHsa)
    throw CodeObjectError("not an HSA code object (EI_OSABI is not ELFOSABI_AMDGPU_HSA)");
  if (header.abiVersion < 1 || header.abiVersion > 4)
    throw CodeObjectError("unsupported code object ABI version " + std::to_string(header.abiVersion) +
                          " (code objects v3 to v6 are read)");
  CodeObjectMetadata metadata;
  metadata.codeObjectVersion = header.abiVersion + 2u;
  metadata.elfFlags = header.flags;
  metadata.processor = processorOfMach(header.flags & kMachMask);
  metadata.targetId = metadata.processor;
  if (metadata.codeObjectVersion >= 4) {
    metadata.targetId += featureSuffix("sramecc", (header.flags & kSrameccMask) >> 10);
    metadata.targetId += featureSuffix("xnack", (header.flags & kXnackMask) >> 8);
  }

  const MsgpackValue* root = nullptr;
  MsgpackValue decoded;
  for (const auto& note : readElfNotes(data, size)) {
    if (note.name != "AMDGPU" || note.type != kNoteAmdgpuMetadata) continue;
    decoded = decodeMsgpack(note.descriptor, note.descriptorSize);
    root = &decoded;
    break;
  }
  if (!root) throw CodeObjectError("the code object has no NT_AMDGPU_METADATA note");
  if (root->type != MsgpackValue::Type::Map) throw CodeObjectError("the metadata is not a map");
  if (const MsgpackValue* target = root->find("amdhsa.target"))
    metadata.target = target->asString("amdhsa.target");
  if (const MsgpackValue* version = root->find("amdhsa.version")) {
    for (const auto& part : version->items)
      metadata.metadataVersion.push_back(part.asUnsigned("amdhsa.version"));
  }
  const MsgpackValue* kernels = root->find("amdhsa.kernels");
  if (!kernels || kernels->type != MsgpackValue::Type::Array)
    throw CodeObjectError("the metadata lacks amdhsa.kernels");
  for (const auto& kernel : kernels->items) metadata.kernels.push_back(readKernel(kernel));
  return metadata;
}

}  // namespace kreplay::hsa
