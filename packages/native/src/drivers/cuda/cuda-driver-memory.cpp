// The cuda driver's memory: allocations, frees after the queues have passed, reads and writes.
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-driver.hpp"

namespace kreplay::cuda {

namespace {

constexpr std::uint64_t kAlignment = 4096;

std::uint64_t alignUp(std::uint64_t value) {
  return (value + kAlignment - 1) / kAlignment * kAlignment;
}

}  // namespace

std::uint64_t CudaDriver::freeBytes(std::uint32_t agent) {
  return memoryInfo(agent).freeBytes;
}

MemoryInfo CudaDriver::memoryInfo(std::uint32_t agent) {
  device(agent).context()->makeCurrent();
  std::size_t freeBytes = 0;
  std::size_t totalBytes = 0;
  check(device(agent).api(), device(agent).api().cuMemGetInfo(&freeBytes, &totalBytes), "cuMemGetInfo");
  return {freeBytes, totalBytes};
}

AllocationResult CudaDriver::allocate(std::uint32_t agent, std::uint64_t bytes) {
  CudaDevice& target = device(agent);
  target.context()->makeCurrent();
  if (context_->faults.check(OperationKind::Allocate, agent).fail) return {0, true, freeBytes(agent)};
  const CudaApi& api = target.api();
  const std::uint64_t rounded = alignUp(bytes);
  CUdeviceptr base = 0;
  if (api.cuMemAlloc(&base, rounded) != CUDA_SUCCESS) return {0, false, freeBytes(agent)};
  if (base % kAlignment != 0) {
    // Small allocations may share a larger CUDA block: take one page more and align inside it.
    api.cuMemFree(base);
    if (api.cuMemAlloc(&base, rounded + kAlignment) != CUDA_SUCCESS) return {0, false, freeBytes(agent)};
  }
  const std::uint64_t address = alignUp(base);
  context_->memory.add(address, {bytes, CudaMemoryKind::Device, agent, base});
  return {address, false, 0};
}

void CudaDriver::free(std::uint32_t agent, std::uint64_t address) {
  const auto block = context_->memory.remove(address);
  if (!block) return;
  releaseAfterQueues(agent, [this, block = *block] { releaseBlock(block); });
}

std::uint64_t CudaDriver::allocateHost(std::uint64_t bytes, bool pinned) {
  void* memory = nullptr;
  if (pinned) {
    const CudaContext& context = *context_->devices.front()->context();
    context.makeCurrent();
    // Portable and mapped: every device's kernels reach it at the same address.
    if (context.api().cuMemHostAlloc(&memory, bytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP) !=
        CUDA_SUCCESS)
      return 0;
  } else if (posix_memalign(&memory, kAlignment, bytes) != 0) {
    return 0;
  }
  std::memset(memory, 0, bytes);
  const std::uint64_t address = addressOf(memory);
  context_->memory.add(
      address, {bytes, pinned ? CudaMemoryKind::HostPinned : CudaMemoryKind::HostPageable, 0, address});
  return address;
}

void CudaDriver::freeHost(std::uint64_t address) {
  const auto block = context_->memory.remove(address);
  if (!block) return;
  releaseAfterQueues(-1, [this, block = *block] { releaseBlock(block); });
}

void CudaDriver::allocateAt(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes) {
  const std::uint64_t token = context_->fixed->mapDevice(agent, address, bytes);
  context_->memory.add(address, {bytes, CudaMemoryKind::FixedDevice, agent, token});
}

void CudaDriver::allocateHostAt(std::uint64_t address, std::uint64_t bytes) {
  const std::uint64_t token = context_->fixed->mapHost(address, bytes);
  context_->memory.add(address, {bytes, CudaMemoryKind::FixedHost, 0, token});
}

Range CudaDriver::kernelGlobal(std::uint32_t kernel, std::uint32_t agent, const std::string& name) {
  const auto loaded = context_->userKernels.get(kernel);
  const CudaDevice& target = device(agent);
  const CudaApi& api = target.api();
  if (!api.cuModuleGetGlobal) throw OperationFailure("unsupported", "this libcuda has no cuModuleGetGlobal_v2");
  target.context()->makeCurrent();
  CUdeviceptr address = 0;
  std::size_t bytes = 0;
  const CUresult result = api.cuModuleGetGlobal(&address, &bytes, loaded->module(agent), name.c_str());
  if (result != CUDA_SUCCESS) {
    throw OperationFailure(api.errorName(result), "the module of kernel " + loaded->name() + " has no global named " +
                                                      name + " (" + api.errorText(result) + ")");
  }
  if (!context_->memory.contains(address)) {
    context_->memory.add(address, {bytes, CudaMemoryKind::ModuleGlobal, agent, address});
  }
  return {address, bytes};
}

void CudaDriver::releaseBlock(const CudaMemoryBlock& block) {
  switch (block.kind) {
    case CudaMemoryKind::FixedDevice:
    case CudaMemoryKind::FixedHost:
      context_->fixed->release(block.base);
      return;
    case CudaMemoryKind::ModuleGlobal:
      return;  // freed with its module
    case CudaMemoryKind::Device:
    case CudaMemoryKind::StreamOrdered: {
      const CudaContext& context = *device(block.agent).context();
      if (context.tryMakeCurrent()) context.api().cuMemFree(block.base);
      return;
    }
    case CudaMemoryKind::HostPinned: {
      const CudaContext& context = *context_->devices.front()->context();
      if (context.tryMakeCurrent()) context.api().cuMemFreeHost(pointerOf(block.base));
      return;
    }
    case CudaMemoryKind::HostPageable:
      std::free(pointerOf(block.base));
      return;
  }
}

void CudaDriver::read(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes,
                      std::uint8_t* destination) {
  std::shared_lock<std::shared_mutex> guard(memoryGuard_);
  if (shutDown_) throw std::runtime_error("the runtime was disposed before the read ran");
  if (bytes == 0) return;
  if (!context_->memory.isDevice(address)) {
    std::memcpy(destination, pointerOf(address), bytes);
    return;
  }
  device(agent).context()->makeCurrent();
  check(device(agent).api(), device(agent).api().cuMemcpy(addressOf(destination), address, bytes),
        "cuMemcpy");
}

void CudaDriver::write(std::uint32_t agent, std::uint64_t address, const std::uint8_t* source,
                       std::uint64_t bytes) {
  std::shared_lock<std::shared_mutex> guard(memoryGuard_);
  if (shutDown_) throw std::runtime_error("the runtime was disposed before the write ran");
  if (bytes == 0) return;
  if (!context_->memory.isDevice(address)) {
    std::memcpy(pointerOf(address), source, bytes);
    return;
  }
  device(agent).context()->makeCurrent();
  check(device(agent).api(), device(agent).api().cuMemcpy(address, addressOf(source), bytes), "cuMemcpy");
}

}  // namespace kreplay::cuda
