// A stand-in for libcupti.so and the few libcuda calls the capture library makes, over host memory,
// so that the CUPTI glue runs end to end without a GPU (kreplay-capture-test --drive-injection,
// capture-injection.test.ts). Device addresses are host addresses. Test hooks: fakeCuptiInvoke calls
// the subscribed callback; fakeCuptiEnabled says whether a callback was enabled. Its cuMemcpy raises
// a cuMemAlloc_v2 callback for an address nobody can read, as a driver raises callbacks for the
// library's own calls: the library must ignore it.
#include <cstdint>
#include <cstring>
#include <set>
#include <utility>

#include "capture/inject/cupti-callback-api.hpp"

namespace cu = kreplay::capture::cupti;

namespace {

cu::CallbackFunction subscribed = nullptr;
void* subscribedData = nullptr;
std::set<std::pair<int, std::uint32_t>> enabled;
std::uint8_t counter[4] = {5, 5, 5, 5};
bool raising = false;

void raiseOwnAllocation() {
  if (subscribed == nullptr || raising) return;
  raising = true;
  static cu::CUdeviceptr unreadable = 0xdead0000;
  static cu::MemAllocParams params{&unreadable, 4096};
  static cu::CUresult success = 0;
  cu::CallbackData data{};
  data.callbackSite = cu::kApiExit;
  data.functionName = "cuMemAlloc_v2";
  data.functionParams = &params;
  data.functionReturnValue = &success;
  subscribed(subscribedData, cu::kDomainDriverApi, cu::cbid::cuMemAlloc_v2, &data);
  raising = false;
}

}  // namespace

#define FAKE extern "C" __attribute__((visibility("default")))

FAKE int cuptiSubscribe(cu::SubscriberHandle* subscriber, cu::CallbackFunction callback, void* userdata) {
  subscribed = callback;
  subscribedData = userdata;
  *subscriber = reinterpret_cast<cu::SubscriberHandle>(0x1);
  return 0;
}
FAKE int cuptiEnableCallback(std::uint32_t enable, cu::SubscriberHandle, int domain, std::uint32_t cbid) {
  if (enable) enabled.insert({domain, cbid});
  return 0;
}
FAKE int fakeCuptiInvoke(int domain, std::uint32_t cbid, const void* data) {
  if (subscribed == nullptr || enabled.count({domain, cbid}) == 0) return 0;
  subscribed(subscribedData, domain, cbid, data);
  return 1;
}
FAKE int fakeCuptiEnabled(int domain, std::uint32_t cbid) {
  return enabled.count({domain, cbid}) != 0 ? 1 : 0;
}
FAKE std::uint64_t fakeCudaCounterAddress() {
  return reinterpret_cast<std::uint64_t>(counter);
}

FAKE int cuCtxSynchronize() {
  return 0;
}
FAKE int cuMemcpy(std::uint64_t destination, std::uint64_t source, std::size_t bytes) {
  raiseOwnAllocation();
  std::memcpy(reinterpret_cast<void*>(destination), reinterpret_cast<const void*>(source), bytes);
  return 0;
}
FAKE int cuStreamIsCapturing(void*, int* status) {
  *status = 0;
  return 0;
}
FAKE int cuFuncGetModule(void** module, void*) {
  *module = reinterpret_cast<void*>(0x5000);
  return 0;
}
FAKE int cuModuleGetGlobal_v2(std::uint64_t* address, std::size_t* bytes, void*, const char* name) {
  if (std::strcmp(name, "counter") != 0) return 500;  // CUDA_ERROR_NOT_FOUND
  *address = reinterpret_cast<std::uint64_t>(counter);
  *bytes = sizeof counter;
  return 0;
}
FAKE int cuCtxGetDevice(int* device) {
  *device = 0;
  return 0;
}
FAKE int cuDeviceGetAttribute(int* value, int attribute, int) {
  *value = attribute == 75 ? 9 : 0;  // compute capability 9.0
  return 0;
}
FAKE int cuDeviceGetName(char* name, int length, int) {
  std::strncpy(name, "Fake CUPTI device", static_cast<std::size_t>(length));
  return 0;
}
FAKE int cuGetErrorName(int, const char** name) {
  *name = "CUDA_ERROR_FAKE";
  return 0;
}
