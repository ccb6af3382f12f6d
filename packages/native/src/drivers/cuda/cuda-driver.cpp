#include "drivers/cuda/cuda-driver.hpp"

#include "core/address-reservations.hpp"
#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-graph.hpp"
#include "drivers/cuda/cupti-device-config.hpp"

namespace kreplay::cuda {

CudaDriver::CudaDriver(std::shared_ptr<const CudaLibrary> library)
    : context_(std::make_shared<CudaDriverContext>()) {
  const CudaApi& api = library->api;
  // Ranges for device memory are given up just before CUDA starts and reserved right after it
  // (cuda-fixed-memory.hpp): CUDA never grants a range that was mapped while it initialized.
  AddressReservations::process().releaseForDevice();
  const auto deviceRanges = AddressReservations::process().takeReleasedForDevice();
  check(api, api.cuInit(0), "cuInit");
  int count = 0;
  check(api, api.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (count == 0) throw OperationFailure("CUDA_ERROR_NO_DEVICE", "CUDA reports no device");
  context_->library = library;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    context_->devices.push_back(std::make_shared<CudaDevice>(library, ordinal));
    agents_.push_back(context_->devices.back()->description());
  }
  context_->devices.front()->context()->makeCurrent();
  context_->pinned = std::make_unique<CudaPinnedPool>(context_->devices.front()->context());
  context_->fixed = std::make_unique<CudaFixedMemory>(context_->devices);
  context_->fixed->holdWindows(deviceRanges);
  int driverVersion = 0;
  api.cuDriverGetVersion(&driverVersion);
  version_ = "CUDA " + std::to_string(driverVersion / 1000) + "." +
             std::to_string(driverVersion % 1000 / 10) + " driver API (libcuda.so.1)";
}

CudaDriver::~CudaDriver() {
  shutdown();
}

std::function<void()> CudaDriver::agentFence(std::uint32_t agent) {
  return queues_.fence(agent);
}

void CudaDriver::releaseAfterQueues(std::int64_t agent, std::function<void()> release) {
  releases_->add(queues_.fences(agent), std::move(release));
}

std::shared_ptr<Queue> CudaDriver::createQueue(std::uint32_t agent) {
  auto queue = std::make_shared<CudaQueue>(context_, agent);
  queues_.add(agent, queue);
  return queue;
}

std::uint32_t CudaDriver::loadUserKernel(const std::vector<std::uint8_t>& image, const std::string& name,
                                         const std::vector<std::uint8_t>& parameterBytes) {
  return context_->userKernels.add(
      std::make_shared<CudaUserKernel>(context_->devices, image, name, parameterBytes));
}

int CudaDriver::userKernelRegisters(std::uint32_t kernel, std::uint32_t agent) const {
  return context_->userKernels.get(kernel)->registers(agent);
}

bool CudaDriver::runsGraphs() const {
  return context_->library->api.hasGraphs();
}

std::shared_ptr<KernelGraph> CudaDriver::createGraph(std::uint32_t agent, std::vector<GraphStep> steps) {
  return std::make_shared<CudaKernelGraph>(context_->devices.at(agent), agent, std::move(steps), context_->userKernels);
}

std::string CudaDriver::checkpointUnavailableReason() {
  return loadCuptiCheckpoint().failure;
}

std::shared_ptr<CheckpointSession> CudaDriver::openCheckpoint(const std::shared_ptr<Queue>& queue) {
  const CuptiCheckpointLoad& loaded = loadCuptiCheckpoint();
  if (!loaded.library) throw OperationFailure("cupti-unavailable", loaded.failure);
  auto cudaQueue = std::dynamic_pointer_cast<CudaQueue>(queue);
  if (!cudaQueue) throw std::logic_error("openCheckpoint needs a queue of the cuda driver");
  auto session = std::make_shared<CudaCheckpointSession>(loaded.library, std::move(cudaQueue), releases_);
  std::lock_guard<std::mutex> lock(mutex_);
  if (shutDown_) throw OperationFailure("runtime-disposed", "the runtime was disposed");
  std::vector<std::weak_ptr<CudaCheckpointSession>> kept;
  for (auto& entry : checkpoints_) {
    if (!entry.expired()) kept.push_back(std::move(entry));
  }
  kept.push_back(session);
  checkpoints_.swap(kept);
  return session;
}

std::string CudaDriver::profilerUnavailableReason() {
  return loadCuptiProfiler().failure;
}

std::string CudaDriver::profilerChipName(std::uint32_t agent) {
  const CuptiProfilerLoad& loaded = loadCuptiProfiler();
  if (!loaded.library) throw OperationFailure("cupti-unavailable", loaded.failure);
  return cuptiChipName(*loaded.library, *context_->devices.at(agent)->context());
}

std::shared_ptr<ProfilerSession> CudaDriver::createProfilerSession(std::uint32_t agent,
                                                                   const std::vector<std::string>& metrics,
                                                                   ProfilerRange range, ProfilerConditions conditions) {
  const CuptiProfilerLoad& loaded = loadCuptiProfiler();
  if (!loaded.library) throw OperationFailure("cupti-unavailable", loaded.failure);
  auto session =
      std::make_shared<CudaProfilerSession>(loaded.library, context_->devices.at(agent), metrics, range, conditions);
  std::lock_guard<std::mutex> lock(mutex_);
  if (shutDown_) throw OperationFailure("runtime-disposed", "the runtime was disposed");
  std::vector<std::weak_ptr<CudaProfilerSession>> kept;
  for (auto& entry : profilers_) {
    if (!entry.expired()) kept.push_back(std::move(entry));
  }
  kept.push_back(session);
  profilers_.swap(kept);
  return session;
}

void CudaDriver::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shutDown_) return;
    shutDown_ = true;
  }
  for (const auto& queue : queues_.live(-1)) queue->shutdown();
  // Checkpoints hold device and host memory of CUPTI's own: freed once no queue can use them.
  std::vector<std::weak_ptr<CudaCheckpointSession>> checkpoints;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    checkpoints.swap(checkpoints_);
  }
  for (const auto& entry : checkpoints) {
    if (auto session = entry.lock()) session->releaseNow();
  }
  std::vector<std::weak_ptr<CudaProfilerSession>> profilers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    profilers.swap(profilers_);
  }
  for (const auto& entry : profilers) {
    if (auto session = entry.lock()) session->release();
  }
  releases_->stop();
  std::unique_lock<std::shared_mutex> guard(memoryGuard_);  // waits for reads and writes in flight
  for (const auto& block : context_->memory.removeAll()) releaseBlock(block);
  context_->userKernels.clear();
  context_->pinned->releaseAll();
  context_->fixed->releaseAll();
}

}  // namespace kreplay::cuda
