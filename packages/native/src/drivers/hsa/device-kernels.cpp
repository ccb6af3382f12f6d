#include "drivers/hsa/device-kernels.hpp"

namespace kreplay::hsa {

namespace {

using Kind = ParameterKind;

}  // namespace

const std::vector<DeviceKernelSpec>& deviceKernels() {
  static const std::vector<DeviceKernelSpec> kernels{
      {DeviceKernel::HashPages,
       "kreplay_hash_pages",
       {Kind::Pointer, Kind::U32, Kind::U64, Kind::U64, Kind::Pointer}},
      {DeviceKernel::CopyChangedPages,
       "kreplay_copy_changed_pages",
       {Kind::Pointer, Kind::U32, Kind::U64, Kind::U64, Kind::Pointer, Kind::Pointer, Kind::Pointer,
        Kind::U32}},
      {DeviceKernel::CheckPageList,
       "kreplay_check_page_list",
       {Kind::Pointer, Kind::Pointer, Kind::U64, Kind::Pointer}},
      {DeviceKernel::CopyPageList,
       "kreplay_copy_page_list",
       {Kind::Pointer, Kind::U32, Kind::U64, Kind::Pointer, Kind::Pointer, Kind::Pointer, Kind::Pointer}},
      {DeviceKernel::Fill, "kreplay_fill", {Kind::Pointer, Kind::U64, Kind::U32}},
      {DeviceKernel::XorDigest, "kreplay_xor_digest", {Kind::Pointer, Kind::U64, Kind::Pointer}},
      {DeviceKernel::ScatterWrite,
       "kreplay_scatter_write",
       {Kind::Pointer, Kind::U64, Kind::U64, Kind::F64, Kind::U64, Kind::Pointer, Kind::U64}},
      {DeviceKernel::Triad,
       "kreplay_triad",
       {Kind::Pointer, Kind::Pointer, Kind::Pointer, Kind::F32, Kind::U64}},
      {DeviceKernel::StencilEdges, "kreplay_stencil_edges", {Kind::Pointer, Kind::U64, Kind::Pointer}},
      {DeviceKernel::Stencil, "kreplay_stencil", {Kind::Pointer, Kind::U64, Kind::Pointer}},
      {DeviceKernel::Accumulate, "kreplay_accumulate", {Kind::Pointer, Kind::U64, Kind::Pointer, Kind::U64}},
      {DeviceKernel::Marker, "kreplay_marker", {}},
  };
  return kernels;
}

const DeviceKernelSpec& deviceKernel(DeviceKernel kernel) {
  return deviceKernels().at(static_cast<std::size_t>(kernel));
}

const char* valueKindOf(ParameterKind kind) {
  return kind == ParameterKind::Pointer ? "global_buffer" : "by_value";
}

std::uint64_t sizeOf(ParameterKind kind) {
  return kind == ParameterKind::U32 || kind == ParameterKind::F32 ? 4 : 8;
}

std::vector<std::string> checkDeviceKernels(const CodeObjectMetadata& metadata) {
  std::vector<std::string> problems;
  for (const auto& spec : deviceKernels()) {
    const std::string name = spec.name;
    const KernelMetadata* kernel = metadata.findKernel(name);
    if (!kernel) {
      problems.push_back(name + " is missing");
      continue;
    }
    if (kernel->symbol != name + ".kd") problems.push_back(name + " has the symbol " + kernel->symbol);
    if (kernel->maxFlatWorkgroupSize < kGroupSize)
      problems.push_back(name + " allows work-groups of only " +
                         std::to_string(kernel->maxFlatWorkgroupSize));
    if (kernel->privateSegmentFixedSize != 0 || kernel->usesDynamicStack)
      problems.push_back(name + " uses private memory (" + std::to_string(kernel->privateSegmentFixedSize) +
                         " bytes)");
    if (kernel->arguments.size() != spec.parameters.size()) {
      problems.push_back(name + " has " + std::to_string(kernel->arguments.size()) + " arguments, not " +
                         std::to_string(spec.parameters.size()));
      continue;
    }
    for (std::size_t index = 0; index < spec.parameters.size(); ++index) {
      const auto& argument = kernel->arguments[index];
      const ParameterKind kind = spec.parameters[index];
      if (argument.valueKind != valueKindOf(kind) || argument.size != sizeOf(kind)) {
        problems.push_back(name + " argument " + std::to_string(index) + " is " + argument.valueKind +
                           " of " + std::to_string(argument.size) + " bytes, not " + valueKindOf(kind) +
                           " of " + std::to_string(sizeOf(kind)));
      }
    }
  }
  return problems;
}

}  // namespace kreplay::hsa
