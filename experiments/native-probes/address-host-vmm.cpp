// Can pinned host memory live inside a CUDA address reservation, beside device memory, so that a
// 32 MiB window (the only hints CUDA honours) can hold a captured program's device and host ranges
// together? Reserves 64 MiB at a 32 MiB-aligned hint, maps 2 MiB of device memory at its start and
// 2 MiB of host memory (cuMemCreate with CU_MEM_LOCATION_TYPE_HOST) right after it, grants both the
// device and the host access, then checks that the CPU can write and read the host part, that the
// device can (cuMemsetD8, cuMemcpy between the two parts) and what CUDA says the host part is.
//   g++ -O2 -std=c++17 address-host-vmm.cpp -I/usr/local/cuda/include -lcuda -o address-host-vmm && ./address-host-vmm
#include <cuda.h>
#include <setjmp.h>
#include <signal.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

constexpr std::size_t kWindow = std::size_t{64} << 20;
constexpr std::size_t kPart = std::size_t{2} << 20;
sigjmp_buf faulted;

void onFault(int) { siglongjmp(faulted, 1); }

bool report(const char* step, CUresult result) {
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::printf("%-58s %s\n", step, result == CUDA_SUCCESS ? "ok" : name);
  return result == CUDA_SUCCESS;
}

}  // namespace

int main() {
  CUdevice device = 0;
  CUcontext context = nullptr;
  if (!report("cuInit", cuInit(0)) || !report("cuDeviceGet", cuDeviceGet(&device, 0)) ||
      !report("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&context, device)) ||
      !report("cuCtxSetCurrent", cuCtxSetCurrent(context))) {
    return 1;
  }
  const std::uintptr_t hint = 0x3e0000000000;
  CUdeviceptr window = 0;
  if (!report("cuMemAddressReserve 64 MiB at a 32 MiB-aligned hint", cuMemAddressReserve(&window, kWindow, 0, hint, 0))) return 1;
  std::printf("reserved %#llx (%s)\n", static_cast<unsigned long long>(window), window == hint ? "the hint" : "moved");

  CUmemAllocationProp onDevice{};
  onDevice.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  onDevice.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  onDevice.location.id = device;
  CUmemAllocationProp onHost = onDevice;
  onHost.location.type = CU_MEM_LOCATION_TYPE_HOST;
  onHost.location.id = 0;
  std::size_t hostGranularity = 0;
  report("cuMemGetAllocationGranularity (host location)",
         cuMemGetAllocationGranularity(&hostGranularity, &onHost, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  std::printf("host granularity %zu\n", hostGranularity);

  CUmemGenericAllocationHandle deviceHandle = 0, hostHandle = 0;
  const CUdeviceptr devicePart = window, hostPart = window + kPart;
  if (!report("cuMemCreate 2 MiB on the device", cuMemCreate(&deviceHandle, kPart, &onDevice, 0)) ||
      !report("cuMemCreate 2 MiB on the host", cuMemCreate(&hostHandle, kPart, &onHost, 0)) ||
      !report("cuMemMap device part", cuMemMap(devicePart, kPart, 0, deviceHandle, 0)) ||
      !report("cuMemMap host part", cuMemMap(hostPart, kPart, 0, hostHandle, 0))) {
    return 1;
  }
  CUmemAccessDesc access[2]{};
  access[0].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access[0].location.id = device;
  access[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  access[1].location.type = CU_MEM_LOCATION_TYPE_HOST;
  access[1].location.id = 0;
  access[1].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  report("cuMemSetAccess device part (device)", cuMemSetAccess(devicePart, kPart, access, 1));
  const bool hostAccess = report("cuMemSetAccess host part (device and host)", cuMemSetAccess(hostPart, kPart, access, 2)) ||
                          report("cuMemSetAccess host part (device only)", cuMemSetAccess(hostPart, kPart, access, 1));

  signal(SIGSEGV, onFault);
  signal(SIGBUS, onFault);
  auto* cpu = reinterpret_cast<unsigned char*>(hostPart);
  if (sigsetjmp(faulted, 1) == 0) {
    std::memset(cpu, 0x5a, kPart);
    std::printf("CPU wrote the host part: %s (first byte %#x)\n", cpu[kPart - 1] == 0x5a ? "ok" : "WRONG", cpu[0]);
  } else {
    std::printf("CPU write to the host part: FAULT\n");
  }
  (void)hostAccess;
  report("cuMemsetD8 device part 0x11", cuMemsetD8(devicePart, 0x11, kPart));
  report("cuMemcpy device part -> host part", cuMemcpy(hostPart, devicePart, kPart));
  report("cuCtxSynchronize", cuCtxSynchronize());
  if (sigsetjmp(faulted, 1) == 0) {
    std::printf("CPU reads the device's copy in the host part: %s (%#x)\n", cpu[12345] == 0x11 ? "ok" : "WRONG", cpu[12345]);
  } else {
    std::printf("CPU read of the host part: FAULT\n");
  }
  report("cuMemsetD8 host part 0x22 (by the device)", cuMemsetD8(hostPart, 0x22, kPart));
  report("cuCtxSynchronize", cuCtxSynchronize());
  if (sigsetjmp(faulted, 1) == 0) {
    std::printf("CPU reads the device's memset of the host part: %s (%#x)\n", cpu[777] == 0x22 ? "ok" : "WRONG", cpu[777]);
  } else {
    std::printf("CPU read of the host part: FAULT\n");
  }
  unsigned int type = 0;
  report("cuPointerGetAttribute MEMORY_TYPE of the host part",
         cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, hostPart));
  std::printf("memory type %u (1 host, 2 device)\n", type);
  cuMemUnmap(hostPart, kPart);
  cuMemUnmap(devicePart, kPart);
  cuMemRelease(hostHandle);
  cuMemRelease(deviceHandle);
  cuMemAddressFree(window, kWindow);
  return 0;
}
