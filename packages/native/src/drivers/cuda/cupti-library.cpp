#include "drivers/cuda/cupti-library.hpp"

#include <cstdlib>
#include <vector>

namespace kreplay::cuda {

namespace {

std::vector<std::string> searchFolders() {
  std::vector<std::string> folders;
  const char* override = std::getenv("KREPLAY_CUPTI_LIBRARY_DIR");
  if (override && *override) return {override};  // an explicit choice: nothing else is tried
  folders.emplace_back("/usr/local/cuda/extras/CUPTI/lib64");
  folders.emplace_back("/usr/local/cuda/lib64");
  return folders;
}

}  // namespace

CuptiLibraryLookup openCuptiLibrary(std::initializer_list<const char*> names) {
  CuptiLibraryLookup lookup;
  const std::vector<std::string> folders = searchFolders();
  std::vector<std::string> candidates;
  for (const auto& folder : folders) {
    for (const char* name : names) candidates.push_back(folder + "/" + name);
  }
  const char* override = std::getenv("KREPLAY_CUPTI_LIBRARY_DIR");
  const bool exclusive = override && *override;
  if (!exclusive) {
    for (const char* name : names) candidates.emplace_back(name);
  }
  std::string lastError;
  for (const auto& candidate : candidates) {
    auto library = std::make_unique<DynamicLibrary>(candidate.c_str(), true);
    if (library->loaded()) {
      lookup.library = std::move(library);
      lookup.path = candidate;
      return lookup;
    }
    // A file that exists but does not load says more than "not found" does.
    if (library->error().find("No such file") == std::string::npos) lastError = library->error();
  }
  std::string looked;
  for (const auto& folder : folders) looked += folder + ", ";
  lookup.failure = std::string(*names.begin()) + " was not found (looked in " +
                   (exclusive ? std::string(override) + ", named by KREPLAY_CUPTI_LIBRARY_DIR)"
                              : looked + "and the library path)");
  if (!lastError.empty()) lookup.failure += "; " + lastError;
  return lookup;
}

const char* cuptiInstallFix() {
  return "Install CUPTI (the CUDA toolkit's extras/CUPTI), or set KREPLAY_CUPTI_LIBRARY_DIR to the folder "
         "holding libcupti.so, libcheckpoint.so and libnvperf_host.so";
}

}  // namespace kreplay::cuda
