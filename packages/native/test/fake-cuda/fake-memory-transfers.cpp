// Copies and memsets of the fake libcuda: plain memmove and memset on host memory, run in order on
// the stream (a captured one becomes a graph node instead), host and device pointers alike.
#include <cstddef>
#include <cstring>

#include "fake-graphs.hpp"
#include "fake-streams.hpp"

using kreplay_fake::CUdeviceptr;
using kreplay_fake::CUresult;
using kreplay_fake::kSuccess;

extern "C" {

CUresult cuMemcpy(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes) {
  std::memmove(reinterpret_cast<void*>(destination), reinterpret_cast<const void*>(source), bytes);
  return kSuccess;
}
CUresult cuMemcpyAsync(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes, CUstream_st* stream) {
  if (kreplay_fake::captureCopy(stream, destination, source, bytes)) return kSuccess;
  kreplay_fake::runOn(stream, [=] { cuMemcpy(destination, source, bytes); });
  return kSuccess;
}
// What the capture library (src/capture/inject) copies with beyond the driver's calls.
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr destination, const void* source, std::size_t bytes, CUstream_st* stream) {
  return cuMemcpyAsync(destination, reinterpret_cast<CUdeviceptr>(source), bytes, stream);
}
CUresult cuMemcpyDtoHAsync_v2(void* destination, CUdeviceptr source, std::size_t bytes, CUstream_st* stream) {
  return cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(destination), source, bytes, stream);
}

CUresult cuMemsetD8Async(CUdeviceptr destination, unsigned char value, std::size_t count,
                         CUstream_st* stream) {
  if (kreplay_fake::captureMemset(stream, destination, value, 1, count)) return kSuccess;
  kreplay_fake::runOn(stream, [=] { std::memset(reinterpret_cast<void*>(destination), value, count); });
  return kSuccess;
}
CUresult cuMemsetD16Async(CUdeviceptr destination, unsigned short value, std::size_t count, CUstream_st* stream) {
  if (kreplay_fake::captureMemset(stream, destination, value, 2, count)) return kSuccess;
  kreplay_fake::runOn(stream, [=] {
    for (std::size_t index = 0; index < count; ++index)
      std::memcpy(reinterpret_cast<void*>(destination + 2 * index), &value, 2);
  });
  return kSuccess;
}
CUresult cuMemsetD32Async(CUdeviceptr destination, unsigned value, std::size_t count, CUstream_st* stream) {
  if (kreplay_fake::captureMemset(stream, destination, value, 4, count)) return kSuccess;
  kreplay_fake::runOn(stream, [=] {
    for (std::size_t index = 0; index < count; ++index)
      std::memcpy(reinterpret_cast<void*>(destination + 4 * index), &value, 4);
  });
  return kSuccess;
}

}  // extern "C"
