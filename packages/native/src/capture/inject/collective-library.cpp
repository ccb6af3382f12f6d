#include "capture/inject/collective-library.hpp"

#include <dlfcn.h>

namespace kreplay::capture {

bool isCollectiveKernel(const std::string& function) {
  return function.find("ncclDevKernel_") != std::string::npos || function.find("ncclKernel_") != std::string::npos;
}

std::optional<std::string> collectiveLibraryName(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.rfind("libnccl", 0) == 0 || name.rfind("librccl", 0) == 0) return name;
  return std::nullopt;
}

std::optional<std::string> collectiveLibraryHolding(const void* address) {
  Dl_info info{};
  if (address == nullptr || ::dladdr(address, &info) == 0 || info.dli_fname == nullptr) return std::nullopt;
  return collectiveLibraryName(info.dli_fname);
}

std::optional<std::string> whyCollective(const std::string& function, const std::string& library,
                                         const std::string& caller) {
  if (!library.empty())
    return "its code was loaded from " + library + ", a collective library, and a collective is never replayed alone";
  if (!caller.empty())
    return "launched from " + caller + "'s code, a collective library, and a collective is never replayed alone";
  if (isCollectiveKernel(function)) return "it takes part in a collective (NCCL), which is never replayed alone";
  return std::nullopt;
}

}  // namespace kreplay::capture
