// Kernels of the queue itself: a delay (injected faults that hold an operation back) and taking
// the device-side failure state at a synchronize marker.
#include "kernels-cuda/device-common.cuh"

namespace kreplay_device {

__device__ __forceinline__ uint64_t globalTimer() {
#ifdef KREPLAY_FAKE_CUDA  // test/fake-cuda runs these kernels on the CPU
  return kreplay_fake::timerNanoseconds();
#else
  uint64_t nanoseconds;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(nanoseconds));
  return nanoseconds;
#endif
}

}  // namespace kreplay_device

extern "C" __global__ void kreplay_delay(uint64_t nanoseconds) {
  using namespace kreplay_device;
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const uint64_t start = globalTimer();
  while (globalTimer() - start < nanoseconds) __nanosleep(20000);
}

/** Copies the failure fields to `report` (host memory) and clears the whole state for the next batch. */
extern "C" __global__ void kreplay_take_state(KreplayQueueState* state, KreplayStateReport* report) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  report->errorCode = state->errorCode;
  report->reserved = 0;
  report->workIndex = state->workIndex;
  report->errorValue = state->errorValue;
  report->errorPosition = state->errorPosition;
  report->pageCount = state->pageCount;
  *state = KreplayQueueState{};
  __threadfence_system();
}
