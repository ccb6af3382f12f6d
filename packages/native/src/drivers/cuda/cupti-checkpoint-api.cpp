#include "drivers/cuda/cupti-checkpoint-api.hpp"

#include <mutex>

namespace kreplay::cuda {

namespace {

CuptiCheckpointLoad openCheckpointLibrary() {
  auto loaded = std::make_shared<CuptiCheckpointLibrary>();
  // libcheckpoint.so needs libcupti.so; opened first (globally) from the same places, it is found.
  loaded->cupti = openCuptiLibrary({"libcupti.so", "libcupti.so.13"}).library;
  CuptiLibraryLookup checkpoint = openCuptiLibrary({"libcheckpoint.so"});
  if (!checkpoint.library) return {nullptr, checkpoint.failure};
  loaded->checkpoint = std::move(checkpoint.library);
  loaded->path = checkpoint.path;
  const DynamicLibrary& library = *loaded->checkpoint;
  const auto resolve = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(library.symbol(name));
    return function != nullptr;
  };
  CuptiCheckpointApi& api = loaded->api;
  for (auto [ok, name] :
       {std::pair{resolve(api.cuptiCheckpointSave, "cuptiCheckpointSave"), "cuptiCheckpointSave"},
        {resolve(api.cuptiCheckpointRestore, "cuptiCheckpointRestore"), "cuptiCheckpointRestore"},
        {resolve(api.cuptiCheckpointFree, "cuptiCheckpointFree"), "cuptiCheckpointFree"}}) {
    if (!ok) return {nullptr, checkpoint.path + " does not export " + name};
  }
  return {loaded, ""};
}

}  // namespace

const CuptiCheckpointLoad& loadCuptiCheckpoint() {
  // Kept for the process, never closed (CUPTI keeps state and threads of its own).
  static std::once_flag once;
  static CuptiCheckpointLoad* loaded = nullptr;
  std::call_once(once, [] { loaded = new CuptiCheckpointLoad(openCheckpointLibrary()); });
  return *loaded;
}

}  // namespace kreplay::cuda
