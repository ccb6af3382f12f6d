#include "drivers/cuda/cuda-device.hpp"

#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

CudaDevice::CudaDevice(std::shared_ptr<const CudaLibrary> library, int ordinal)
    : context_(std::make_shared<CudaContext>(std::move(library), ordinal)) {
  context_->makeCurrent();
  if (attribute(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) == 0 ||
      attribute(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY) == 0) {
    throw OperationFailure("unsupported-device", "CUDA device " + std::to_string(ordinal) +
                                                     " has no unified addressing or cannot map host memory");
  }
  computeCapability_ = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
                       attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  multiprocessors_ = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  memoryPools_ = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) != 0;
  maxSharedBytesOptin_ = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  module_ = std::make_unique<CudaBuiltinModule>(api(), computeCapability_);
  clock_ = std::make_unique<CudaDeviceClock>(context_);
  description_ = describeCudaDevice(api(), context_->device(), computeCapability_);
}

CudaDevice::~CudaDevice() {
  if (!context_->tryMakeCurrent()) return;
  clock_.reset();
  module_.reset();
}

int CudaDevice::attribute(int attribute) const {
  int value = 0;
  check(api(), api().cuDeviceGetAttribute(&value, attribute, context_->device()), "cuDeviceGetAttribute");
  return value;
}

}  // namespace kreplay::cuda
