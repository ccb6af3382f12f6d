// A lease on one device's primary context: retained when made, released when the last holder (the
// driver, a queue, an event that outlives them) lets go, so no CUDA handle outlives its context.
#pragma once

#include <memory>

#include "drivers/cuda/cuda-api.hpp"

namespace kreplay::cuda {

class CudaContext {
 public:
  /** @throws OperationFailure when the device or its primary context cannot be had. */
  CudaContext(std::shared_ptr<const CudaLibrary> library, int ordinal);
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  const CudaApi& api() const { return library_->api; }
  int ordinal() const { return ordinal_; }
  CUdevice device() const { return device_; }
  /** The primary context itself (for CUPTI, which takes a context). */
  CUcontext handle() const { return context_; }
  /** Makes the context current on the calling thread (cheap; call before CUDA work on any thread). */
  void makeCurrent() const;
  /** makeCurrent for destructors and cleanup: false instead of throwing. */
  bool tryMakeCurrent() const noexcept;

 private:
  std::shared_ptr<const CudaLibrary> library_;
  int ordinal_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
};

/** A CUDA event of a context, destroyed with the last holder. */
class CudaEventHandle {
 public:
  /** @throws OperationFailure when the event cannot be created. */
  CudaEventHandle(std::shared_ptr<const CudaContext> context, unsigned flags);
  ~CudaEventHandle();
  CudaEventHandle(const CudaEventHandle&) = delete;
  CudaEventHandle& operator=(const CudaEventHandle&) = delete;

  CUevent get() const { return event_; }
  const CudaContext& context() const { return *context_; }

 private:
  std::shared_ptr<const CudaContext> context_;
  CUevent event_ = nullptr;
};

}  // namespace kreplay::cuda
