#include "capture/inject/loaded-modules.hpp"

#include <algorithm>

namespace kreplay::capture {

void LoadedModules::add(std::uint32_t id, const std::uint8_t* image, std::size_t bytes,
                        const std::string& collectiveLibrary) {
  auto module = std::make_shared<LoadedModule>();
  module->id = id;
  module->collectiveLibrary = collectiveLibrary;
  module->image.assign(image, image + bytes);
  module->info = readModuleImage(module->image.data(), module->image.size());
  module->order = nextOrder_++;
  remove(id);
  for (const ModuleEntry& entry : module->info.entries) {
    if (!entry.cubin) continue;
    for (const KernelInfo& kernel : entry.cubin->kernels) {
      std::vector<Entry>& list = kernels_[kernel.name];
      // One definition per module (a fatbin's first cubin that defines it).
      const bool known = std::any_of(list.begin(), list.end(), [&](const Entry& other) {
        const auto held = other.module.lock();
        return held && held->id == id;
      });
      if (!known) list.push_back({module, &kernel, &*entry.cubin});
    }
  }
  modules_[id] = std::move(module);
}

void LoadedModules::remove(std::uint32_t id) {
  const auto found = modules_.find(id);
  if (found == modules_.end()) return;
  const std::shared_ptr<LoadedModule> module = found->second;
  modules_.erase(found);
  for (const ModuleEntry& entry : module->info.entries) {
    if (!entry.cubin) continue;
    for (const KernelInfo& kernel : entry.cubin->kernels) {
      auto list = kernels_.find(kernel.name);
      if (list == kernels_.end()) continue;
      list->second.erase(std::remove_if(list->second.begin(), list->second.end(),
                                        [&](const Entry& other) { return other.module.lock() == module; }),
                         list->second.end());
      if (list->second.empty()) kernels_.erase(list);
    }
  }
}

std::optional<KernelDefinition> LoadedModules::find(const std::string& function,
                                                    std::optional<std::uint32_t> preferred) const {
  const auto list = kernels_.find(function);
  if (list == kernels_.end()) return std::nullopt;
  std::optional<KernelDefinition> best;
  for (const Entry& entry : list->second) {
    auto module = entry.module.lock();
    if (!module) continue;
    if (preferred && module->id == *preferred) {
      best = KernelDefinition{module, entry.kernel, entry.cubin, 0, true};
      break;
    }
    if (!best || module->order > best->module->order)
      best = KernelDefinition{module, entry.kernel, entry.cubin, 0, false};
  }
  if (best) best->definitions = list->second.size();
  return best;
}

}  // namespace kreplay::capture
