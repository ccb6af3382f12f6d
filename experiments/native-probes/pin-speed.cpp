// How fast host memory becomes pinned on this machine, by method (issue 20: the first dispatch of a
// snapshot larger than the spare device memory waits for its pinned host mirror).
//   g++ -O2 -std=c++17 pin-speed.cpp -o pin-speed -ldl -lpthread && ./pin-speed 8
// Methods: cuMemHostAlloc of the whole buffer; anonymous memory touched by T threads, then
// cuMemHostRegister of it whole or in T chunks from T threads; each with and without transparent
// huge pages. Prints one line per method: seconds and GiB/s for touching and for pinning.
#include <dlfcn.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

using CUresult = int;
using Init = CUresult (*)(unsigned);
using DeviceGet = CUresult (*)(int*, int);
using CtxRetain = CUresult (*)(void**, int);
using CtxSet = CUresult (*)(void*);
using HostAlloc = CUresult (*)(void**, std::size_t, unsigned);
using FreeHost = CUresult (*)(void*);
using HostRegister = CUresult (*)(void*, std::size_t, unsigned);
using HostUnregister = CUresult (*)(void*);
using MemAlloc = CUresult (*)(std::uint64_t*, std::size_t);
using CopyDtoH = CUresult (*)(void*, std::uint64_t, std::size_t);

namespace {
HostAlloc hostAlloc;
FreeHost freeHost;
HostRegister hostRegister;
HostUnregister hostUnregister;
CtxSet ctxSet;
MemAlloc memAlloc;
CopyDtoH copyDtoH;
std::uint64_t deviceBuffer;
constexpr std::size_t kCopyBytes = std::size_t{2} << 30;
void* context;
constexpr unsigned kPortableDeviceMap = 0x01 | 0x02;

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void parallel(unsigned threads, const std::function<void(unsigned)>& body) {
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) workers.emplace_back([&, t] { ctxSet(context); body(t); });
  for (auto& worker : workers) worker.join();
}

void report(const char* method, double gib, double touch, double pin) {
  std::printf("%-44s touch %7.3f s (%6.2f GiB/s)  pin %7.3f s (%6.2f GiB/s)  total %7.3f s\n", method, touch,
              touch > 0 ? gib / touch : 0.0, pin, gib / pin, touch + pin);
  std::fflush(stdout);
}

void registered(std::size_t bytes, unsigned touchThreads, unsigned pinThreads, bool huge) {
  const double gib = static_cast<double>(bytes) / (1ull << 30);
  auto* memory = static_cast<std::uint8_t*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (memory == MAP_FAILED) { std::perror("mmap"); std::exit(1); }
  if (huge) madvise(memory, bytes, MADV_HUGEPAGE);
  auto start = std::chrono::steady_clock::now();
  const std::size_t touchChunk = bytes / touchThreads;
  parallel(touchThreads, [&](unsigned t) { std::memset(memory + t * touchChunk, 0, t + 1 == touchThreads ? bytes - t * touchChunk : touchChunk); });
  const double touch = seconds(start);
  start = std::chrono::steady_clock::now();
  const std::size_t pinChunk = (bytes / pinThreads) & ~((std::size_t{2} << 20) - 1);
  std::vector<CUresult> results(pinThreads);
  parallel(pinThreads, [&](unsigned t) {
    const std::size_t size = t + 1 == pinThreads ? bytes - t * pinChunk : pinChunk;
    results[t] = hostRegister(memory + t * pinChunk, size, kPortableDeviceMap);
  });
  const double pin = seconds(start);
  for (CUresult result : results) if (result != 0) { std::printf("cuMemHostRegister failed: %d\n", result); std::exit(1); }
  // A copy across the boundary of two registrations: does it still run at the pinned rate?
  double copyRate = 0;
  if (pinThreads > 1 && pinChunk > kCopyBytes) {
    const auto copyStart = std::chrono::steady_clock::now();
    for (int repeat = 0; repeat < 3; ++repeat)
      if (copyDtoH(memory + pinChunk - kCopyBytes / 2, deviceBuffer, kCopyBytes) != 0) std::printf("copy failed\n");
    copyRate = 3 * 2.0 / seconds(copyStart);
  }
  char method[96];
  std::snprintf(method, sizeof method, "register, touch x%u, pin x%u%s", touchThreads, pinThreads, huge ? ", huge pages" : "");
  report(method, gib, touch, pin);
  if (copyRate > 0) std::printf("  device->host copy across two registrations: %.2f GiB/s\n", copyRate);
  for (unsigned t = 0; t < pinThreads; ++t) hostUnregister(memory + t * pinChunk);
  munmap(memory, bytes);
}

void allocated(std::size_t bytes, unsigned threads) {
  const double gib = static_cast<double>(bytes) / (1ull << 30);
  const std::size_t chunk = bytes / threads;
  std::vector<void*> buffers(threads);
  const auto start = std::chrono::steady_clock::now();
  parallel(threads, [&](unsigned t) {
    if (hostAlloc(&buffers[t], chunk, kPortableDeviceMap) != 0) { std::printf("cuMemHostAlloc failed\n"); std::exit(1); }
  });
  char method[96];
  std::snprintf(method, sizeof method, "cuMemHostAlloc x%u", threads);
  report(method, gib, 0, seconds(start));
  for (void* buffer : buffers) freeHost(buffer);
}
}  // namespace

int main(int argc, char** argv) {
  const std::size_t bytes = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 8) << 30;
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW);
  if (!cuda) { std::printf("no libcuda: %s\n", dlerror()); return 1; }
  auto init = reinterpret_cast<Init>(dlsym(cuda, "cuInit"));
  auto deviceGet = reinterpret_cast<DeviceGet>(dlsym(cuda, "cuDeviceGet"));
  auto retain = reinterpret_cast<CtxRetain>(dlsym(cuda, "cuDevicePrimaryCtxRetain"));
  ctxSet = reinterpret_cast<CtxSet>(dlsym(cuda, "cuCtxSetCurrent"));
  hostAlloc = reinterpret_cast<HostAlloc>(dlsym(cuda, "cuMemHostAlloc"));
  freeHost = reinterpret_cast<FreeHost>(dlsym(cuda, "cuMemFreeHost"));
  hostRegister = reinterpret_cast<HostRegister>(dlsym(cuda, "cuMemHostRegister_v2"));
  hostUnregister = reinterpret_cast<HostUnregister>(dlsym(cuda, "cuMemHostUnregister"));
  memAlloc = reinterpret_cast<MemAlloc>(dlsym(cuda, "cuMemAlloc_v2"));
  copyDtoH = reinterpret_cast<CopyDtoH>(dlsym(cuda, "cuMemcpyDtoH_v2"));
  int device = 0;
  if (init(0) || deviceGet(&device, 0) || retain(&context, device) || ctxSet(context)) { std::printf("no device\n"); return 1; }
  if (memAlloc(&deviceBuffer, kCopyBytes)) { std::printf("no device memory\n"); return 1; }
  {
    // The pinned rate for comparison: one registration.
    auto* host = static_cast<std::uint8_t*>(mmap(nullptr, kCopyBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0));
    hostRegister(host, kCopyBytes, kPortableDeviceMap);
    const auto copyStart = std::chrono::steady_clock::now();
    for (int repeat = 0; repeat < 3; ++repeat) copyDtoH(host, deviceBuffer, kCopyBytes);
    std::printf("device->host copy into one registration: %.2f GiB/s\n", 3 * 2.0 / seconds(copyStart));
    hostUnregister(host);
    munmap(host, kCopyBytes);
  }
  const unsigned cores = std::thread::hardware_concurrency();
  std::printf("pinning %zu GiB, %u cores\n", bytes >> 30, cores);
  allocated(bytes, 1);
  allocated(bytes, cores);
  registered(bytes, cores, 1, false);
  registered(bytes, cores, 1, true);
  registered(bytes, cores, cores, false);
  registered(bytes, cores, cores, true);
  registered(bytes, cores, 4, true);
  return 0;
}
