#include "drivers/cuda/cuda-translation-eviction.hpp"

#include <string>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-launch.hpp"
#include "drivers/cuda/profiler-setting.hpp"
#include "kernels-cuda/kernel-abi.h"

namespace kreplay::cuda {

namespace {

constexpr std::uint64_t kPageBytes = 2u << 20;

CudaTranslationEviction::Mode modeFromEnvironment() {
  using Mode = CudaTranslationEviction::Mode;
  return profilerChoice("KREPLAY_PROFILER_TLB", Mode::Off,
                        {{"off", Mode::Off}, {"unmap", Mode::Unmap}, {"thrash", Mode::Thrash}});
}

std::uint64_t thrashBytesFromEnvironment() {
  return profilerSetting("KREPLAY_PROFILER_TLB_GIB", 32, [](std::uint64_t gib) { return gib > 0; },
                         "not a whole number of GiB above 0")
         << 30;
}

}  // namespace

CudaTranslationEviction::CudaTranslationEviction(std::shared_ptr<CudaDevice> device)
    : device_(std::move(device)), mode_(modeFromEnvironment()), thrashBytes_(thrashBytesFromEnvironment()) {
  const CudaApi& cuda = device_->api();
  if (mode_ == Mode::Thrash) check(cuda, cuda.cuMemAlloc(&thrash_, thrashBytes_), "cuMemAlloc");
  if (mode_ != Mode::Unmap) return;
  if (!cuda.cuMemAddressReserve || !cuda.cuMemCreate || !cuda.cuMemMap || !cuda.cuMemUnmap || !cuda.cuMemSetAccess) {
    throw OperationFailure("unsupported", "KREPLAY_PROFILER_TLB=unmap needs cuMemAddressReserve, cuMemCreate and cuMemMap");
  }
  const CUmemAllocationProp properties = pinnedAllocation({CU_MEM_LOCATION_TYPE_DEVICE, device_->context()->device()});
  check(cuda, cuda.cuMemAddressReserve(&page_, kPageBytes, kPageBytes, 0, 0), "cuMemAddressReserve");
  check(cuda, cuda.cuMemCreate(&handle_, kPageBytes, &properties, 0), "cuMemCreate");
}

CudaTranslationEviction::~CudaTranslationEviction() {
  release();
}

void CudaTranslationEviction::enqueue(CudaQueue& queue, std::uint64_t state) {
  if (mode_ != Mode::Thrash || thrash_ == 0) return;
  const std::uint64_t threads = KREPLAY_BLOCK_THREADS;
  launchKernel(*device_, device_->functions().touchPages, gridFor(*device_, thrashBytes_ / kPageBytes, threads),
               static_cast<unsigned>(threads), queue.stream(), static_cast<std::uint64_t>(thrash_), thrashBytes_,
               kPageBytes, state);
}

void CudaTranslationEviction::afterIdle() {
  if (mode_ != Mode::Unmap || handle_ == 0) return;
  const CudaApi& cuda = device_->api();
  check(cuda, cuda.cuMemMap(page_, kPageBytes, 0, handle_, 0), "cuMemMap");
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device_->context()->device();
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  const CUresult granted = cuda.cuMemSetAccess(page_, kPageBytes, &access, 1);
  check(cuda, cuda.cuMemUnmap(page_, kPageBytes), "cuMemUnmap");
  check(cuda, granted, "cuMemSetAccess");
}

void CudaTranslationEviction::release() noexcept {
  const CudaApi& cuda = device_->api();
  if (thrash_) cuda.cuMemFree(thrash_);
  if (handle_) cuda.cuMemRelease(handle_);
  if (page_) cuda.cuMemAddressFree(page_, kPageBytes);
  thrash_ = page_ = 0;
  handle_ = 0;
}

}  // namespace kreplay::cuda
