// Device memory of the fake libcuda: "device memory" is host memory (512-byte aligned) counted against
// a 1 GiB device, allocated at once or stream-ordered (a captured allocation becomes a graph memory
// node instead, freed with its graph), and pinned host memory.
#include "fake-device-memory.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

#include "fake-graphs.hpp"
#include "fake-streams.hpp"

using kreplay_fake::CUdeviceptr;
using kreplay_fake::CUresult;
using kreplay_fake::kDeviceBytes;
using kreplay_fake::kInvalidValue;
using kreplay_fake::kOutOfMemory;
using kreplay_fake::kSuccess;

namespace {

std::mutex memoryMutex;
std::map<CUdeviceptr, std::size_t> deviceBlocks;
std::size_t deviceUsed = 0;

CUresult freeDevice(CUdeviceptr pointer) {
  if (kreplay_fake::isGraphAllocation(pointer)) return kSuccess;  // freed with its graph
  return kreplay_fake::freeDeviceMemory(pointer);
}

}  // namespace

namespace kreplay_fake {

CUresult allocateDeviceMemory(CUdeviceptr* pointer, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  if (bytes == 0) return kInvalidValue;
  if (bytes > kDeviceBytes - deviceUsed) return kOutOfMemory;
  void* memory = std::aligned_alloc(512, (bytes + 511) / 512 * 512);
  if (!memory) return kOutOfMemory;
  *pointer = reinterpret_cast<CUdeviceptr>(memory);
  deviceBlocks[*pointer] = bytes;
  deviceUsed += bytes;
  return kSuccess;
}

CUresult freeDeviceMemory(CUdeviceptr pointer) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  const auto found = deviceBlocks.find(pointer);
  if (found == deviceBlocks.end()) return kInvalidValue;
  deviceUsed -= found->second;
  deviceBlocks.erase(found);
  std::free(reinterpret_cast<void*>(pointer));
  return kSuccess;
}

}  // namespace kreplay_fake

extern "C" {

CUresult cuMemGetInfo_v2(std::size_t* freeBytes, std::size_t* totalBytes) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  *freeBytes = kDeviceBytes - deviceUsed;
  *totalBytes = kDeviceBytes;
  return kSuccess;
}

CUresult cuMemAlloc_v2(CUdeviceptr* pointer, std::size_t bytes) {
  return kreplay_fake::allocateDeviceMemory(pointer, bytes);
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  return freeDevice(pointer);
}
CUresult cuMemAllocAsync(CUdeviceptr* pointer, std::size_t bytes, CUstream_st* stream) {
  CUresult result = kSuccess;
  if (kreplay_fake::captureAllocation(stream, pointer, bytes, result)) return result;
  return kreplay_fake::allocateDeviceMemory(pointer, bytes);
}
CUresult cuMemFreeAsync(CUdeviceptr pointer, CUstream_st* stream) {
  if (kreplay_fake::captureFree(stream, pointer)) return kSuccess;
  kreplay_fake::runOn(stream, [pointer] { freeDevice(pointer); });
  return kSuccess;
}

CUresult cuMemHostAlloc(void** pointer, std::size_t bytes, unsigned) {
  *pointer = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  return *pointer ? kSuccess : kOutOfMemory;
}
CUresult cuMemFreeHost(void* pointer) {
  std::free(pointer);
  return kSuccess;
}

}  // extern "C"
