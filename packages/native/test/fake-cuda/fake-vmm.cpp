// The fake libcuda's virtual memory management and host registration, on the process's own address
// space: a reserved range is a PROT_NONE mapping (at the hint when it is free, aligned to 32 MiB and
// was not mapped when cuInit ran, as an H200's driver 580 honours hints; elsewhere otherwise), an allocation handle
// is a memfd, cuMemMap maps it shared at the address (inaccessible until cuMemSetAccess), and
// registered host memory is remembered so that its device pointer is its own address.
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

using CUresult = int;
using CUdeviceptr = unsigned long long;

namespace {

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kOutOfMemory = 2;
constexpr CUresult kHostMemoryAlreadyRegistered = 712;
constexpr CUresult kHostMemoryNotRegistered = 713;
constexpr std::size_t kGranularity = 2u << 20;
/** The alignment a hint needs to be honoured (experiments/native-probes/address-alignment.cpp on an H200). */
constexpr CUdeviceptr kHonouredHintAlignment = 32u << 20;

struct Handle {
  int descriptor;
  std::size_t bytes;
};

std::mutex mutex;
std::map<CUdeviceptr, std::size_t> reservations;  // start -> bytes
std::map<void*, std::pair<std::size_t, unsigned>> registered;  // host pointer -> bytes, flags

/** What /proc/self/maps held when cuInit first ran: CUDA never grants a hint there afterwards. */
std::map<CUdeviceptr, CUdeviceptr> mappedAtInitialization;  // start -> end

bool mappedAtInit(CUdeviceptr start, CUdeviceptr end) {
  auto found = mappedAtInitialization.upper_bound(start);
  if (found != mappedAtInitialization.begin()) --found;
  for (; found != mappedAtInitialization.end() && found->first < end; ++found) {
    if (found->second > start) return true;
  }
  return false;
}

bool insideReservation(CUdeviceptr pointer, std::size_t bytes) {
  auto found = reservations.upper_bound(pointer);
  if (found == reservations.begin()) return false;
  --found;
  return pointer + bytes <= found->first + found->second;
}

void* reserveAnywhere(std::size_t bytes, std::size_t alignment) {
  const std::size_t padded = bytes + alignment;
  void* mapped = mmap(nullptr, padded, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = (start + alignment - 1) / alignment * alignment;
  if (aligned > start) munmap(mapped, aligned - start);
  const std::uintptr_t end = start + padded;
  if (end > aligned + bytes) munmap(reinterpret_cast<void*>(aligned + bytes), end - aligned - bytes);
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

struct CUmemAllocationProp_st;
struct CUmemAccessDesc_st {
  int locationType;
  int locationId;
  int flags;
};

void fakeVmmNoteInitialization() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!mappedAtInitialization.empty()) return;
  if (FILE* maps = std::fopen("/proc/self/maps", "r")) {
    unsigned long long start = 0, end = 0;
    char line[4096];
    while (std::fgets(line, sizeof line, maps)) {
      if (std::sscanf(line, "%llx-%llx", &start, &end) == 2) mappedAtInitialization[start] = end;
    }
    std::fclose(maps);
  }
}

extern "C" {

CUresult cuMemGetAllocationGranularity(std::size_t* granularity, const CUmemAllocationProp_st*, int) {
  *granularity = kGranularity;
  return kSuccess;
}

CUresult cuMemAddressReserve(CUdeviceptr* pointer, std::size_t bytes, std::size_t alignment, CUdeviceptr address,
                             unsigned long long) {
  if (bytes == 0 || bytes % kGranularity != 0) return kInvalidValue;
  if (alignment == 0) alignment = kGranularity;
  void* mapped = MAP_FAILED;
  bool refused = false;
  {
    std::lock_guard<std::mutex> lock(mutex);
    refused = mappedAtInit(address, address + bytes);
  }
  if (address != 0 && address % kHonouredHintAlignment == 0 && !refused) {
    void* hint = reinterpret_cast<void*>(address);
    mapped = mmap(hint, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (mapped != MAP_FAILED && mapped != hint) {
      munmap(mapped, bytes);
      mapped = MAP_FAILED;
    }
  }
  if (mapped == MAP_FAILED) mapped = reserveAnywhere(bytes, alignment);  // like CUDA: a hint, not a demand
  if (!mapped) return kOutOfMemory;
  *pointer = reinterpret_cast<CUdeviceptr>(mapped);
  std::lock_guard<std::mutex> lock(mutex);
  reservations[*pointer] = bytes;
  return kSuccess;
}

CUresult cuMemAddressFree(CUdeviceptr pointer, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  const auto found = reservations.find(pointer);
  if (found == reservations.end() || found->second != bytes) return kInvalidValue;
  munmap(reinterpret_cast<void*>(pointer), bytes);
  reservations.erase(found);
  return kSuccess;
}

CUresult cuMemCreate(unsigned long long* handle, std::size_t bytes, const CUmemAllocationProp_st*,
                     unsigned long long) {
  if (bytes == 0 || bytes % kGranularity != 0) return kInvalidValue;
  const int descriptor = static_cast<int>(syscall(SYS_memfd_create, "fake-cuda-memory", 0u));
  if (descriptor < 0) return kOutOfMemory;
  if (ftruncate(descriptor, static_cast<off_t>(bytes)) != 0) {
    close(descriptor);
    return kOutOfMemory;
  }
  *handle = reinterpret_cast<unsigned long long>(new Handle{descriptor, bytes});
  return kSuccess;
}

CUresult cuMemRelease(unsigned long long handle) {
  auto* memory = reinterpret_cast<Handle*>(handle);
  if (!memory) return kInvalidValue;
  close(memory->descriptor);  // what is mapped stays mapped, as in CUDA
  delete memory;
  return kSuccess;
}

CUresult cuMemMap(CUdeviceptr pointer, std::size_t bytes, std::size_t offset, unsigned long long handle,
                  unsigned long long) {
  auto* memory = reinterpret_cast<Handle*>(handle);
  std::lock_guard<std::mutex> lock(mutex);
  if (!memory || offset + bytes > memory->bytes || !insideReservation(pointer, bytes)) return kInvalidValue;
  void* mapped = mmap(reinterpret_cast<void*>(pointer), bytes, PROT_NONE, MAP_SHARED | MAP_FIXED, memory->descriptor,
                      static_cast<off_t>(offset));
  return mapped == MAP_FAILED ? kOutOfMemory : kSuccess;
}

CUresult cuMemUnmap(CUdeviceptr pointer, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!insideReservation(pointer, bytes)) return kInvalidValue;
  mmap(reinterpret_cast<void*>(pointer), bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
       -1, 0);
  return kSuccess;
}

CUresult cuMemSetAccess(CUdeviceptr pointer, std::size_t bytes, const CUmemAccessDesc_st* descriptions,
                        std::size_t count) {
  if (count == 0 || !descriptions) return kInvalidValue;
  const int protection = descriptions[0].flags == 0x3   ? PROT_READ | PROT_WRITE
                         : descriptions[0].flags == 0x1 ? PROT_READ
                                                        : PROT_NONE;
  return mprotect(reinterpret_cast<void*>(pointer), bytes, protection) == 0 ? kSuccess : kInvalidValue;
}

CUresult cuMemHostRegister_v2(void* pointer, std::size_t bytes, unsigned flags) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!pointer || bytes == 0) return kInvalidValue;
  if (registered.count(pointer)) return kHostMemoryAlreadyRegistered;
  registered[pointer] = {bytes, flags};
  return kSuccess;
}

CUresult cuMemHostUnregister(void* pointer) {
  std::lock_guard<std::mutex> lock(mutex);
  return registered.erase(pointer) ? kSuccess : kHostMemoryNotRegistered;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* devicePointer, void* pointer, unsigned) {
  std::lock_guard<std::mutex> lock(mutex);
  auto found = registered.upper_bound(pointer);
  if (found == registered.begin()) return kInvalidValue;
  --found;
  const auto* start = static_cast<const unsigned char*>(found->first);
  if (static_cast<const unsigned char*>(pointer) >= start + found->second.first || !(found->second.second & 0x2))
    return kInvalidValue;
  *devicePointer = reinterpret_cast<CUdeviceptr>(pointer);
  return kSuccess;
}

}  // extern "C"
