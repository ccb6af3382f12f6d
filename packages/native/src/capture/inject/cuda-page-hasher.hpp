// Page hashing on the device for the capture library: the built-in kernel kreplay_hash_pages_block
// (or _warp for pages up to 16 KiB) from src/kernels-cuda, loaded once per context the program
// launches in (cuModuleLoadDataEx of the embedded PTX of the newest architecture not newer than the
// device's), launched on a stream of the library's own; the span table goes up and only the 8-byte
// hashes come back, through a small pinned buffer. Its driver calls are made inside a callback, so
// their callbacks are ignored; the resource callback of its module says loadingOwnModule().
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "capture/inject/cuda-driver-calls.hpp"
#include "capture/inject/device-memory-access.hpp"

namespace kreplay::capture {

class CudaPageHasher {
 public:
  explicit CudaPageHasher(const CudaDriverCalls& cuda) : cuda_(cuda) {}
  ~CudaPageHasher();
  CudaPageHasher(const CudaPageHasher&) = delete;
  CudaPageHasher& operator=(const CudaPageHasher&) = delete;

  /** DeviceMemoryAccess::hashPages in the current context. Throws DeviceAccessError. */
  void hashPages(const std::vector<HashSpan>& spans, std::uint64_t pageBytes, std::uint64_t* hashes);
  /** The library's own stream in the current context (made on first use). Throws DeviceAccessError. */
  void* stream();

  /** True on the thread loading the library's own module (its module-loaded callback is not the program's). */
  static bool loadingOwnModule();

 private:
  /** What the library keeps in one context. */
  struct ContextTools {
    void* stream = nullptr;
    void* module = nullptr;
    void* hashBlock = nullptr;
    void* hashWarp = nullptr;
    int multiprocessors = 1;
    std::uint64_t scratch = 0;  ///< device: queue state, span table, hashes
    std::uint64_t scratchBytes = 0;
    std::uint8_t* pinned = nullptr;  ///< host: span table, hashes
    std::uint64_t pinnedBytes = 0;
  };
  ContextTools& tools(bool withKernels);
  void loadKernels(ContextTools& tools);
  void reserve(ContextTools& tools, std::uint64_t deviceBytes, std::uint64_t hostBytes);

  const CudaDriverCalls& cuda_;
  std::map<void*, std::unique_ptr<ContextTools>> contexts_;
};

}  // namespace kreplay::capture
