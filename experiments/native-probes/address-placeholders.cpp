// Does a range held by a PROT_NONE placeholder while the CUDA driver initializes stay refused to
// cuMemAddressReserve after the placeholder is unmapped? Three 64 MiB ranges at 32 MiB-aligned
// addresses: one unmapped before cuInit, one after cuInit and before the context, one after the
// context; then each is reserved with its base as the hint.
//   g++ -O2 -std=c++17 address-placeholders.cpp -I/usr/local/cuda/include -lcuda -o address-placeholders && ./address-placeholders
#include <cuda.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

namespace {

constexpr std::size_t kBytes = std::size_t{64} << 20;

void* placeholder(std::uintptr_t address) {
  void* hint = reinterpret_cast<void*>(address);
  void* mapped = mmap(hint, kBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  return mapped == hint ? mapped : nullptr;
}

void reserve(const char* when, std::uintptr_t address) {
  CUdeviceptr got = 0;
  const CUresult result = cuMemAddressReserve(&got, kBytes, 0, address, 0);
  std::printf("placeholder unmapped %-36s hint %#14llx -> %#14llx %s\n", when, static_cast<unsigned long long>(address),
              static_cast<unsigned long long>(got), result != CUDA_SUCCESS ? "FAILED" : got == address ? "HONOURED" : "moved");
  if (result == CUDA_SUCCESS) cuMemAddressFree(got, kBytes);
}

}  // namespace

int main() {
  const std::uintptr_t before = 0x3d0000000000, afterInit = 0x3d0100000000, afterContext = 0x3d0200000000, never = 0x3d0300000000;
  void* first = placeholder(before);
  void* second = placeholder(afterInit);
  void* third = placeholder(afterContext);
  if (!first || !second || !third) return std::puts("a placeholder could not be mapped"), 1;
  munmap(first, kBytes);
  if (cuInit(0) != CUDA_SUCCESS) return std::puts("cuInit failed"), 1;
  munmap(second, kBytes);
  CUdevice device = 0;
  CUcontext context = nullptr;
  cuDeviceGet(&device, 0);
  cuDevicePrimaryCtxRetain(&context, device);
  cuCtxSetCurrent(context);
  munmap(third, kBytes);
  reserve("before cuInit", before);
  reserve("after cuInit, before the context", afterInit);
  reserve("after the context", afterContext);
  reserve("(never mapped)", never);
  return 0;
}
