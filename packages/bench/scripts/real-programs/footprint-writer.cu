// A CUDA program whose footprint and write fraction are chosen, for the cost of `kreplay capture`
// against footprint (real-programs/run.sh): it holds FOOTPRINT_GIB GiB of device memory in one
// allocation, fills it, then between cudaProfilerStart and cudaProfilerStop launches a kernel
// LAUNCHES times, each launch rewriting a different PERCENT % of the 64 KiB pages (chosen by a hash
// of the launch and the page). Prints one JSON line with the wall seconds of the launches.
//   nvcc -O2 -o footprint-writer footprint-writer.cu
//   ./footprint-writer FOOTPRINT_GIB LAUNCHES [PERCENT=1]
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr std::uint64_t kPageBytes = 65536;
constexpr std::uint64_t kPageWords = kPageBytes / 8;

__device__ std::uint64_t mix(std::uint64_t value) {
  value ^= value >> 33;
  value *= 0xff51afd7ed558ccdull;
  value ^= value >> 33;
  value *= 0xc4ceb9fe1a85ec53ull;
  return value ^ (value >> 33);
}

__global__ void fillPages(std::uint64_t* words, std::uint64_t count) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    words[i] = mix(i);
}

// One block per written page: page = the launch's k-th page of a stride walk over all pages.
__global__ void rewritePages(std::uint64_t* words, std::uint64_t pages, std::uint64_t stride, std::uint64_t first,
                             std::uint64_t launch) {
  const std::uint64_t page = (first + blockIdx.x * stride) % pages;
  std::uint64_t* base = words + page * kPageWords;
  for (std::uint64_t i = threadIdx.x; i < kPageWords; i += blockDim.x) base[i] = mix(base[i] ^ (launch + 1));
}

void check(cudaError_t result, const char* what) {
  if (result == cudaSuccess) return;
  std::fprintf(stderr, "footprint-writer: %s failed: %s\n", what, cudaGetErrorString(result));
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: footprint-writer FOOTPRINT_GIB LAUNCHES [PERCENT=1]\n");
    return 2;
  }
  const double gib = std::atof(argv[1]);
  const int launches = std::atoi(argv[2]);
  const double percent = argc > 3 ? std::atof(argv[3]) : 1.0;
  const std::uint64_t pages = static_cast<std::uint64_t>(gib * 1024 * 1024 * 1024) / kPageBytes;
  const std::uint64_t written = pages * percent / 100 < 1 ? 1 : static_cast<std::uint64_t>(pages * percent / 100);
  std::uint64_t* words = nullptr;
  check(cudaMalloc(&words, pages * kPageBytes), "cudaMalloc");
  fillPages<<<1024, 256>>>(words, pages * kPageWords);
  check(cudaDeviceSynchronize(), "fill");
  const std::uint64_t stride = pages / written;
  const auto start = std::chrono::steady_clock::now();
  check(cudaProfilerStart(), "cudaProfilerStart");
  for (int launch = 0; launch < launches; launch += 1) {
    rewritePages<<<static_cast<unsigned>(written), 256>>>(words, pages, stride, static_cast<std::uint64_t>(launch) * 7919,
                                                          static_cast<std::uint64_t>(launch));
  }
  check(cudaDeviceSynchronize(), "launches");
  check(cudaProfilerStop(), "cudaProfilerStop");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("{\"footprintBytes\":%llu,\"launches\":%d,\"pagesWrittenPerLaunch\":%llu,\"pages\":%llu,\"capturedStepSeconds\":%.6f}\n",
              static_cast<unsigned long long>(pages * kPageBytes), launches,
              static_cast<unsigned long long>(written), static_cast<unsigned long long>(pages), seconds);
  check(cudaFree(words), "cudaFree");
  return 0;
}
