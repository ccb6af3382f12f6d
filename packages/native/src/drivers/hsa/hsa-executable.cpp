#include "drivers/hsa/hsa-executable.hpp"

#include "drivers/hsa/msgpack-reader.hpp"

namespace kreplay::hsa {

namespace {

template <class T>
T symbolInfo(const HsaRuntime& runtime, hsa_executable_symbol_t symbol,
             hsa_executable_symbol_info_t attribute) {
  T value{};
  check(runtime, runtime.api().hsa_executable_symbol_get_info(symbol, attribute, &value),
        "hsa_executable_symbol_get_info");
  return value;
}

}  // namespace

HsaExecutable::HsaExecutable(const HsaRuntime& runtime, hsa_agent_t agent,
                             const EmbeddedCodeObject& codeObject)
    : runtime_(runtime), metadata_(readCodeObjectMetadata(codeObject.bytes, codeObject.size)) {
  const auto problems = checkDeviceKernels(metadata_);
  if (!problems.empty())
    throw CodeObjectError("the " + metadata_.processor +
                          " code object does not match the driver: " + problems.front());
  const EntryPoints& api = runtime.api();
  try {
    check(runtime, api.hsa_code_object_reader_create_from_memory(codeObject.bytes, codeObject.size, &reader_),
          "hsa_code_object_reader_create_from_memory");
    check(runtime,
          api.hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "",
                                        &executable_),
          "hsa_executable_create_alt");
    check(runtime, api.hsa_executable_load_agent_code_object(executable_, agent, reader_, "", nullptr),
          "hsa_executable_load_agent_code_object");
    check(runtime, api.hsa_executable_freeze(executable_, ""), "hsa_executable_freeze");
    for (const auto& spec : deviceKernels()) {
      const KernelMetadata* metadata = metadata_.findKernel(spec.name);
      hsa_executable_symbol_t symbol{0};
      check(runtime,
            api.hsa_executable_get_symbol_by_name(executable_, metadata->symbol.c_str(), &agent, &symbol),
            "hsa_executable_get_symbol_by_name");
      LoadedKernel& loaded = kernels_[static_cast<std::size_t>(spec.kernel)];
      loaded.metadata = metadata;
      loaded.kernelObject =
          symbolInfo<std::uint64_t>(runtime, symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
      loaded.groupSegmentBytes =
          symbolInfo<std::uint32_t>(runtime, symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE);
      loaded.privateSegmentBytes =
          symbolInfo<std::uint32_t>(runtime, symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE);
      const auto kernargBytes =
          symbolInfo<std::uint32_t>(runtime, symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE);
      if (kernargBytes != metadata->kernargSegmentSize) {
        throw CodeObjectError("the loader gives " + metadata->name + " " + std::to_string(kernargBytes) +
                              " kernarg bytes, its metadata " + std::to_string(metadata->kernargSegmentSize));
      }
    }
  } catch (...) {
    release();
    throw;
  }
}

HsaExecutable::~HsaExecutable() {
  release();
}

void HsaExecutable::release() {
  if (executable_.handle) runtime_.api().hsa_executable_destroy(executable_);
  if (reader_.handle) runtime_.api().hsa_code_object_reader_destroy(reader_);
  executable_.handle = 0;
  reader_.handle = 0;
}

}  // namespace kreplay::hsa
