// Which hints does cuMemAddressReserve honour: does a hint have to be aligned more than the
// allocation granularity? And can memory be mapped at an exact 2 MiB-aligned address inside a
// larger, aligned reservation? Prints one line per probe.
//   g++ -O2 -std=c++17 address-alignment.cpp -I/usr/local/cuda/include -lcuda -o address-alignment && ./address-alignment
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <initializer_list>

namespace {

constexpr CUdeviceptr kMiB = 1 << 20;

bool reserve(const char* what, CUdeviceptr bytes, CUdeviceptr alignment, CUdeviceptr hint) {
  CUdeviceptr got = 0;
  const CUresult result = cuMemAddressReserve(&got, bytes, alignment, hint, 0);
  const bool honoured = result == CUDA_SUCCESS && got == hint;
  std::printf("%-34s bytes %4llu MiB align %3llu MiB hint %#16llx -> %#16llx %s\n", what,
              static_cast<unsigned long long>(bytes / kMiB), static_cast<unsigned long long>(alignment / kMiB),
              static_cast<unsigned long long>(hint), static_cast<unsigned long long>(got),
              result != CUDA_SUCCESS ? "FAILED" : honoured ? "HONOURED" : "moved");
  if (result == CUDA_SUCCESS) cuMemAddressFree(got, bytes);
  return honoured;
}

}  // namespace

int main() {
  if (cuInit(0) != CUDA_SUCCESS) return std::puts("cuInit failed"), 1;
  CUdevice device = 0;
  CUcontext context = nullptr;
  cuDeviceGet(&device, 0);
  cuDevicePrimaryCtxRetain(&context, device);
  cuCtxSetCurrent(context);
  CUmemAllocationProp properties{};
  properties.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  properties.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  properties.location.id = device;
  size_t granularity = 0;
  cuMemGetAllocationGranularity(&granularity, &properties, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  size_t recommended = 0;
  cuMemGetAllocationGranularity(&recommended, &properties, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
  std::printf("granularity minimum %zu, recommended %zu\n", granularity, recommended);

  const CUdeviceptr base = 0x600000000000;
  for (const CUdeviceptr offset : {2 * kMiB, 4 * kMiB, 8 * kMiB, 16 * kMiB, 32 * kMiB, 34 * kMiB, 64 * kMiB}) {
    char what[64];
    std::snprintf(what, sizeof what, "64 MiB at base + %llu MiB", static_cast<unsigned long long>(offset / kMiB));
    reserve(what, 64 * kMiB, 0, base + offset);
  }
  for (const CUdeviceptr bytes : {2 * kMiB, 6 * kMiB, 20 * kMiB, 34 * kMiB, 130 * kMiB}) {
    reserve("size at base + 2 MiB", bytes, 0, base + 2 * kMiB);
  }
  reserve("align 2 MiB at base + 2 MiB", 64 * kMiB, 2 * kMiB, base + 2 * kMiB);
  reserve("align 2 MiB at base + 6 MiB", 8 * kMiB, 2 * kMiB, base + 6 * kMiB);
  reserve("in the 0x7f.. range, 2 MiB step", 64 * kMiB, 0, 0x7e0000200000);
  reserve("in the 0x7f.. range, 32 MiB step", 64 * kMiB, 0, 0x7e0002000000);

  // Exact placement inside a larger aligned reservation.
  const CUdeviceptr aligned = base + 1024 * kMiB, want = aligned + 6 * kMiB, bytes = 10 * kMiB;
  CUdeviceptr got = 0;
  CUresult result = cuMemAddressReserve(&got, 64 * kMiB, 0, aligned, 0);
  std::printf("superset reservation at %#llx -> %#llx (%d)\n", static_cast<unsigned long long>(aligned),
              static_cast<unsigned long long>(got), result);
  if (result == CUDA_SUCCESS && got == aligned) {
    CUmemGenericAllocationHandle handle = 0;
    result = cuMemCreate(&handle, bytes, &properties, 0);
    if (result == CUDA_SUCCESS) result = cuMemMap(want, bytes, 0, handle, 0);
    CUmemAccessDesc access{};
    access.location = properties.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (result == CUDA_SUCCESS) result = cuMemSetAccess(want, bytes, &access, 1);
    unsigned char byte = 0;
    if (result == CUDA_SUCCESS) result = cuMemsetD8(want + bytes - 1, 0xa5, 1);
    if (result == CUDA_SUCCESS) result = cuMemcpyDtoH(&byte, want + bytes - 1, 1);
    std::printf("mapped %llu MiB at exactly %#llx inside it: %s (%d), read back %#x\n",
                static_cast<unsigned long long>(bytes / kMiB), static_cast<unsigned long long>(want),
                result == CUDA_SUCCESS && byte == 0xa5 ? "yes" : "no", result, byte);
    // A second reservation next to the first one's unused tail.
    reserve("a hint in the superset's tail", 2 * kMiB, 0, aligned + 40 * kMiB);
    cuMemUnmap(want, bytes);
    cuMemRelease(handle);
    cuMemAddressFree(aligned, 64 * kMiB);
  }
  return 0;
}
