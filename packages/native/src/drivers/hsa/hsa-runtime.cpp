#include "drivers/hsa/hsa-runtime.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <type_traits>
#include <utility>

#include "core/dynamic-library.hpp"

namespace kreplay::hsa {

namespace {

constexpr const char* kLibraryName = "libhsa-runtime64.so.1";

std::vector<std::string> candidatePaths() {
  const std::string custom = HsaRuntime::customLibrary();
  if (!custom.empty()) return {custom};
  std::vector<std::string> paths{kLibraryName};
  if (const char* root = std::getenv("ROCM_PATH"); root && *root)
    paths.push_back(std::string(root) + "/lib/" + kLibraryName);
  paths.push_back(std::string("/opt/rocm/lib/") + kLibraryName);
  return paths;
}

struct LoadResult {
  const HsaRuntime* runtime = nullptr;
  std::string error;
};

}  // namespace

std::string HsaRuntime::customLibrary() {
  const char* path = std::getenv("KREPLAY_HSA_LIBRARY");
  return path ? path : "";
}

const HsaRuntime* HsaRuntime::load(std::string& error) {
  static std::once_flag once;
  static LoadResult result;
  std::call_once(once, [] {
    std::string tried;
    for (const auto& path : candidatePaths()) {
      // Deliberately never deleted: see the header.
      auto* library = new DynamicLibrary(path.c_str());
      if (!library->loaded()) {
        tried += (tried.empty() ? "" : "; ") + library->error();
        delete library;
        continue;
      }
      auto* runtime = new HsaRuntime();
      runtime->path_ = path;
      forEachEntryPoint(runtime->api_, [&](const char* name, auto& member) {
        member = reinterpret_cast<std::remove_reference_t<decltype(member)>>(library->symbol(name));
        if (!member) runtime->missing_.push_back(name);
      });
      result.runtime = runtime;
      return;
    }
    result.error = tried;
  });
  error = result.error;
  return result.runtime;
}

std::unique_ptr<HsaRuntime> HsaRuntime::fromEntryPoints(const EntryPoints& api, std::string path) {
  std::unique_ptr<HsaRuntime> runtime(new HsaRuntime());
  runtime->api_ = api;
  runtime->path_ = std::move(path);
  return runtime;
}

std::string HsaRuntime::describe(hsa_status_t status) const {
  std::string text = statusName(status);
  const char* description = nullptr;
  if (api_.hsa_status_string && api_.hsa_status_string(status, &description) == HSA_STATUS_SUCCESS &&
      description && *description) {
    text += std::string(" (") + description + ")";
  }
  return text;
}

std::string statusName(hsa_status_t status) {
  // hsa.h's codes, then hsa_ext_amd.h's.
  static const std::pair<int, const char*> kNames[] = {
      {0x0, "HSA_STATUS_SUCCESS"},
      {0x1, "HSA_STATUS_INFO_BREAK"},
      {0x1000, "HSA_STATUS_ERROR"},
      {0x1001, "HSA_STATUS_ERROR_INVALID_ARGUMENT"},
      {0x1002, "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION"},
      {0x1003, "HSA_STATUS_ERROR_INVALID_ALLOCATION"},
      {0x1004, "HSA_STATUS_ERROR_INVALID_AGENT"},
      {0x1005, "HSA_STATUS_ERROR_INVALID_REGION"},
      {0x1006, "HSA_STATUS_ERROR_INVALID_SIGNAL"},
      {0x1007, "HSA_STATUS_ERROR_INVALID_QUEUE"},
      {0x1008, "HSA_STATUS_ERROR_OUT_OF_RESOURCES"},
      {0x1009, "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT"},
      {0x100A, "HSA_STATUS_ERROR_RESOURCE_FREE"},
      {0x100B, "HSA_STATUS_ERROR_NOT_INITIALIZED"},
      {0x100C, "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW"},
      {0x100D, "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS"},
      {0x100E, "HSA_STATUS_ERROR_INVALID_INDEX"},
      {0x100F, "HSA_STATUS_ERROR_INVALID_ISA"},
      {0x1010, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT"},
      {0x1011, "HSA_STATUS_ERROR_INVALID_EXECUTABLE"},
      {0x1012, "HSA_STATUS_ERROR_FROZEN_EXECUTABLE"},
      {0x1013, "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME"},
      {0x1014, "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED"},
      {0x1015, "HSA_STATUS_ERROR_VARIABLE_UNDEFINED"},
      {0x1016, "HSA_STATUS_ERROR_EXCEPTION"},
      {0x1017, "HSA_STATUS_ERROR_INVALID_ISA_NAME"},
      {0x1018, "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL"},
      {0x1019, "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL"},
      {0x1020, "HSA_STATUS_ERROR_INVALID_FILE"},
      {0x1021, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER"},
      {0x1022, "HSA_STATUS_ERROR_INVALID_CACHE"},
      {0x1023, "HSA_STATUS_ERROR_INVALID_WAVEFRONT"},
      {0x1024, "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP"},
      {0x1025, "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE"},
      {0x1026, "HSA_STATUS_ERROR_FATAL"},
      {40, "HSA_STATUS_ERROR_INVALID_MEMORY_POOL"},
      {41, "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION"},
      {42, "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION"},
      {43, "HSA_STATUS_ERROR_MEMORY_FAULT"},
      {44, "HSA_STATUS_CU_MASK_REDUCED"},
  };
  for (const auto& [code, name] : kNames) {
    if (code == static_cast<int>(status)) return name;
  }
  char hex[32];
  std::snprintf(hex, sizeof hex, "HSA status 0x%x", static_cast<unsigned>(status));
  return hex;
}

void check(const HsaRuntime& runtime, hsa_status_t status, const char* what) {
  if (status == HSA_STATUS_SUCCESS || status == HSA_STATUS_INFO_BREAK) return;
  throw HsaError(statusName(status), std::string(what) + " failed with " + runtime.describe(status));
}

}  // namespace kreplay::hsa
