// Which device address hints does cuMemAddressReserve honour on this driver, and where does the driver
// keep its virtual address space? Prints the new mappings of /proc/self/maps after cuInit and after the
// context, then for each probe the hint, the address returned and whether they match.
//   g++ -O2 -std=c++17 address-hints.cpp -I/usr/local/cuda/include -lcuda -o address-hints && ./address-hints
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace {

std::set<std::string> mappings() {
  std::ifstream maps("/proc/self/maps");
  std::set<std::string> lines;
  for (std::string line; std::getline(maps, line);) lines.insert(line);
  return lines;
}

void printNew(const char* when, const std::set<std::string>& before, const std::set<std::string>& after) {
  std::printf("# mappings new %s\n", when);
  for (const auto& line : after) {
    if (before.count(line)) continue;
    unsigned long long start = 0, end = 0;
    std::sscanf(line.c_str(), "%llx-%llx", &start, &end);
    std::printf("  %s   (%.1f MiB)\n", line.c_str(), (end - start) / 1048576.0);
  }
}

CUdeviceptr reserve(const char* what, std::size_t bytes, std::size_t alignment, CUdeviceptr hint, bool keep = false) {
  CUdeviceptr got = 0;
  const CUresult result = cuMemAddressReserve(&got, bytes, alignment, hint, 0);
  std::printf("%-40s bytes %#14zx align %#10zx hint %#16llx -> %#16llx %s (%d)\n", what, bytes, alignment,
              static_cast<unsigned long long>(hint), static_cast<unsigned long long>(got),
              result != CUDA_SUCCESS ? "FAILED" : hint == 0 ? "" : got == hint ? "HONOURED" : "moved", result);
  if (result == CUDA_SUCCESS && !keep) cuMemAddressFree(got, bytes);
  return result == CUDA_SUCCESS ? got : 0;
}

}  // namespace

int main() {
  const auto start = mappings();
  if (cuInit(0) != CUDA_SUCCESS) return std::puts("cuInit failed"), 1;
  const auto initialized = mappings();
  printNew("after cuInit", start, initialized);
  CUdevice device = 0;
  CUcontext context = nullptr;
  cuDeviceGet(&device, 0);
  cuDevicePrimaryCtxRetain(&context, device);
  cuCtxSetCurrent(context);
  const auto withContext = mappings();
  printNew("after the context", initialized, withContext);

  const std::size_t mib = 1 << 20, gib = std::size_t{1} << 30;
  const CUdeviceptr first = reserve("no hint", 64 * mib, 0, 0);
  reserve("the same address again, align 0", 64 * mib, 0, first);
  reserve("the same address again, align 2 MiB", 64 * mib, 2 * mib, first);
  reserve("2 MiB above it", 64 * mib, 0, first + 2 * mib);
  reserve("4 GiB above it", 64 * mib, 0, first + 4 * gib);
  reserve("4 GiB below it", 64 * mib, 0, first - 4 * gib);
  reserve("256 GiB above it", 64 * mib, 0, first + 256 * gib);
  CUdeviceptr allocated = 0;
  if (cuMemAlloc(&allocated, 64 * mib) == CUDA_SUCCESS) {
    cuMemFree(allocated);
    reserve("a freed cuMemAlloc", 64 * mib, 0, allocated);
  }
  const CUdeviceptr big = reserve("1 GiB, no hint", gib, 0, 0);
  reserve("inside the freed 1 GiB", 64 * mib, 0, big + 512 * mib);
  for (const CUdeviceptr hint : {CUdeviceptr{1} << 40, CUdeviceptr{2} << 40, CUdeviceptr{16} << 40, CUdeviceptr{0x600000000000},
                                 CUdeviceptr{0x7e0000000000}, CUdeviceptr{0x10000000}}) {
    reserve("a fixed hint", 64 * mib, 0, hint);
  }
  std::puts("# ten reservations in a row, kept");
  std::vector<CUdeviceptr> kept;
  for (int index = 0; index < 10; ++index) kept.push_back(reserve("in a row", 64 * mib, 0, 0, true));
  for (const CUdeviceptr address : kept) cuMemAddressFree(address, 64 * mib);
  std::puts("# the same ten again, freed in between: does the driver hand back the lowest free address?");
  for (int index = 0; index < 3; ++index) reserve("again", 64 * mib, 0, 0);
  const auto after = mappings();
  printNew("after the probes", withContext, after);
  return 0;
}
