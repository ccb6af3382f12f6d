#include "drivers/cuda/cuda-open.hpp"

#include "drivers/cuda/cuda-driver.hpp"

namespace kreplay {

std::shared_ptr<Driver> openCuda(const DriverOptions&) {
  return std::make_shared<cuda::CudaDriver>(cuda::loadCudaLibrary());
}

}  // namespace kreplay
