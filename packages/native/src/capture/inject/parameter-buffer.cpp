#include "capture/inject/parameter-buffer.hpp"

#include <cstring>
#include <string>

namespace kreplay::capture {

namespace {

// The `extra` keys of cuda.h (CU_LAUNCH_PARAM_*_AS_INT).
constexpr std::uintptr_t kLaunchParamEnd = 0x00;
constexpr std::uintptr_t kLaunchParamBufferPointer = 0x01;
constexpr std::uintptr_t kLaunchParamBufferSize = 0x02;
constexpr std::size_t kMostExtraEntries = 64;

}  // namespace

std::vector<ParameterSlot> parameterSlots(const KernelInfo& kernel) {
  std::vector<ParameterSlot> slots;
  for (const KernelParameterInfo& parameter : kernel.parameters)
    slots.push_back({parameter.index, parameter.offset, parameter.size});
  return slots;
}

ParameterBuffer layOutKernelParams(const KernelInfo& kernel, void* const* kernelParams) {
  ParameterBuffer buffer;
  buffer.bytes.assign(kernel.parameterBufferBytes, 0);
  buffer.slots = parameterSlots(kernel);
  if (!kernel.parameters.empty() && kernelParams == nullptr) {
    throw ParameterBufferError("the launch of " + kernel.name +
                               " passes neither kernelParams nor extra, and it has " +
                               std::to_string(kernel.parameters.size()) + " parameters");
  }
  for (std::size_t i = 0; i < kernel.parameters.size(); ++i) {
    const KernelParameterInfo& parameter = kernel.parameters[i];
    const void* source = kernelParams[parameter.index];
    if (source == nullptr) {
      throw ParameterBufferError("kernelParams[" + std::to_string(parameter.index) + "] of " + kernel.name +
                                 " is null");
    }
    if (std::uint64_t{parameter.offset} + parameter.size > buffer.bytes.size()) {
      throw ParameterBufferError("parameter " + std::to_string(parameter.index) + " of " + kernel.name +
                                 " ends past its " + std::to_string(buffer.bytes.size()) + "-byte buffer");
    }
    std::memcpy(buffer.bytes.data() + parameter.offset, source, parameter.size);
  }
  return buffer;
}

std::optional<std::vector<std::uint8_t>> extraParameterBuffer(void* const* extra) {
  if (extra == nullptr) return std::nullopt;
  const void* pointer = nullptr;
  const std::size_t* size = nullptr;
  for (std::size_t entry = 0;; entry += 2) {
    if (entry >= 2 * kMostExtraEntries)
      throw ParameterBufferError("the launch's extra array has no CU_LAUNCH_PARAM_END");
    const auto key = reinterpret_cast<std::uintptr_t>(extra[entry]);
    if (key == kLaunchParamEnd) break;
    if (key == kLaunchParamBufferPointer) {
      pointer = extra[entry + 1];
    } else if (key == kLaunchParamBufferSize) {
      size = static_cast<const std::size_t*>(extra[entry + 1]);
    } else {
      throw ParameterBufferError("the launch's extra array holds key " + std::to_string(key) +
                                 ", which the capture library does not know");
    }
  }
  if (pointer == nullptr && size == nullptr) return std::nullopt;
  if (pointer == nullptr || size == nullptr) {
    throw ParameterBufferError(std::string("the launch's extra array names a buffer ") +
                               (pointer == nullptr ? "size but no pointer" : "pointer but no size"));
  }
  const auto* bytes = static_cast<const std::uint8_t*>(pointer);
  return std::vector<std::uint8_t>(bytes, bytes + *size);
}

std::vector<std::uint64_t> alignedWords(const std::vector<std::uint8_t>& bytes) {
  std::vector<std::uint64_t> words;
  for (std::size_t at = 0; at + 8 <= bytes.size(); at += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + at, 8);
    words.push_back(word);
  }
  return words;
}

}  // namespace kreplay::capture
