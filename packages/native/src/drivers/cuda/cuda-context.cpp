#include "drivers/cuda/cuda-context.hpp"

#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

CudaContext::CudaContext(std::shared_ptr<const CudaLibrary> library, int ordinal)
    : library_(std::move(library)), ordinal_(ordinal) {
  check(api(), api().cuDeviceGet(&device_, ordinal), "cuDeviceGet");
  check(api(), api().cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
}

CudaContext::~CudaContext() {
  if (context_) api().cuDevicePrimaryCtxRelease(device_);
}

void CudaContext::makeCurrent() const {
  check(api(), api().cuCtxSetCurrent(context_), "cuCtxSetCurrent");
}

bool CudaContext::tryMakeCurrent() const noexcept {
  return api().cuCtxSetCurrent(context_) == CUDA_SUCCESS;
}

CudaEventHandle::CudaEventHandle(std::shared_ptr<const CudaContext> context, unsigned flags)
    : context_(std::move(context)) {
  context_->makeCurrent();
  check(context_->api(), context_->api().cuEventCreate(&event_, flags), "cuEventCreate");
}

CudaEventHandle::~CudaEventHandle() {
  if (context_->tryMakeCurrent()) context_->api().cuEventDestroy(event_);
}

}  // namespace kreplay::cuda
