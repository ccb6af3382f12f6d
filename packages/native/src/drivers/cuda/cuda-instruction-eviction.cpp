#include "drivers/cuda/cuda-instruction-eviction.hpp"

#include <string>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-instruction-eviction-ptx.hpp"
#include "drivers/cuda/cuda-launch.hpp"
#include "drivers/cuda/profiler-setting.hpp"

namespace kreplay::cuda {

namespace {

/** What is done to the instruction caches before each pass. */
enum class Mode { Keep, Evict, Reload };

/**
 * KREPLAY_PROFILER_ICACHE=evict|reload|off (default: evict when the L2 is flushed, else off).
 */
Mode modeFromEnvironment(bool byDefault) {
  return profilerChoice("KREPLAY_PROFILER_ICACHE", byDefault ? Mode::Evict : Mode::Keep,
                        {{"off", Mode::Keep}, {"evict", Mode::Evict}, {"reload", Mode::Reload}});
}

/** KiB of code the eviction kernel runs: KREPLAY_PROFILER_ICACHE_KIB (default 384). */
std::uint64_t evictionKib() {
  return profilerSetting("KREPLAY_PROFILER_ICACHE_KIB", 384, [](std::uint64_t kib) { return kib >= 1 && kib <= 4096; },
                         "not a whole number of KiB from 1 to 4096");
}

/** The code the reload places, once per pass: a kernel of one KiB, never launched. */
constexpr std::uint64_t kReloadedCodeBytes = 1024;

}  // namespace

CudaInstructionEviction::CudaInstructionEviction(std::shared_ptr<CudaDevice> device, bool byDefault)
    : device_(std::move(device)) {
  const Mode mode = modeFromEnvironment(byDefault);
  if (mode == Mode::Keep) return;
  const CudaApi& cuda = device_->api();
  if (mode == Mode::Reload) {
    reloadedPtx_ = instructionEvictionPtx(kReloadedCodeBytes);
    // Loaded once here, so that a PTX the driver cannot take fails now and later loads come from its JIT cache.
    CUmodule probe = nullptr;
    check(cuda, cuda.cuModuleLoadDataEx(&probe, reloadedPtx_.c_str(), 0, nullptr, nullptr), "cuModuleLoadDataEx");
    check(cuda, cuda.cuModuleUnload(probe), "cuModuleUnload");
    return;
  }
  const std::string ptx = instructionEvictionPtx(evictionKib() << 10);
  check(cuda, cuda.cuModuleLoadDataEx(&module_, ptx.c_str(), 0, nullptr, nullptr), "cuModuleLoadDataEx");
  const CUresult found = cuda.cuModuleGetFunction(&function_, module_, kInstructionEvictionKernel);
  const CUresult allocated = found == CUDA_SUCCESS ? cuda.cuMemAlloc(&sink_, 4) : found;
  if (allocated != CUDA_SUCCESS) {
    cuda.cuModuleUnload(module_);
    module_ = nullptr;
    check(cuda, allocated, found == CUDA_SUCCESS ? "cuMemAlloc" : "cuModuleGetFunction");
  }
}

CudaInstructionEviction::~CudaInstructionEviction() {
  release();
}

void CudaInstructionEviction::enqueue(CudaQueue& queue) {
  if (!reloadedPtx_.empty()) {
    // The driver places the module's code in device memory; the module is never launched.
    const CudaApi& cuda = device_->api();
    check(cuda, cuda.cuStreamSynchronize(queue.stream()), "cuStreamSynchronize");
    CUmodule module = nullptr;
    check(cuda, cuda.cuModuleLoadDataEx(&module, reloadedPtx_.c_str(), 0, nullptr, nullptr), "cuModuleLoadDataEx");
    check(cuda, cuda.cuModuleUnload(module), "cuModuleUnload");
    return;
  }
  if (function_ == nullptr) return;
  // Four warps of each block, a few blocks on every multiprocessor: each sub-partition fetches it.
  const unsigned blocks = static_cast<unsigned>(device_->multiprocessors()) * 4;
  launchKernel(*device_, function_, blocks, 128, queue.stream(), static_cast<std::uint64_t>(sink_));
}

void CudaInstructionEviction::release() noexcept {
  const CudaApi& cuda = device_->api();
  if (sink_) cuda.cuMemFree(sink_);
  if (module_) cuda.cuModuleUnload(module_);
  sink_ = 0;
  module_ = nullptr;
  function_ = nullptr;
}

}  // namespace kreplay::cuda
