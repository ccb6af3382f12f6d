// The module images the program has loaded (from the module-loaded callback), each read once with
// the module-image reader, and an index from kernel name to the images that define it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "capture/inject/blob-slot.hpp"
#include "capture/module-image.hpp"

namespace kreplay::capture {

struct LoadedModule {
  std::uint32_t id = 0;     ///< the driver's (CUPTI's) module id
  std::uint64_t order = 0;  ///< when it was loaded, counting from 0
  std::vector<std::uint8_t> image;
  ModuleImageInfo info;
  std::string collectiveLibrary;  ///< the collective library (libnccl*, librccl*) its image came from, or empty
  BlobRef blob;  ///< once handed to the capture's writer
};

/** A kernel found in a loaded module. */
struct KernelDefinition {
  std::shared_ptr<LoadedModule> module;
  const KernelInfo* kernel = nullptr;
  const CubinInfo* cubin = nullptr;
  /** How many loaded modules define the name. */
  std::size_t definitions = 0;
  /** The module was the one asked for (its handle was known), not a guess among several. */
  bool preferred = false;
};

class LoadedModules {
 public:
  /**
   * Copies and reads the image, loaded from `collectiveLibrary` (empty: not a collective library's).
   * Throws ModuleImageError when it cannot be read (it is then not kept).
   */
  void add(std::uint32_t id, const std::uint8_t* image, std::size_t bytes, const std::string& collectiveLibrary = {});
  void remove(std::uint32_t id);
  /**
   * The kernel by its (mangled) name: in module `preferred` when it is given and defines it, else
   * the most recently loaded module among several.
   */
  std::optional<KernelDefinition> find(const std::string& function,
                                       std::optional<std::uint32_t> preferred = std::nullopt) const;
  std::size_t size() const { return modules_.size(); }

 private:
  struct Entry {
    std::weak_ptr<LoadedModule> module;
    const KernelInfo* kernel;
    const CubinInfo* cubin;
  };
  std::uint64_t nextOrder_ = 0;
  std::unordered_map<std::uint32_t, std::shared_ptr<LoadedModule>> modules_;
  std::unordered_map<std::string, std::vector<Entry>> kernels_;
};

}  // namespace kreplay::capture
