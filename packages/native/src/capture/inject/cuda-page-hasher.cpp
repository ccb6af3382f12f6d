#include "capture/inject/cuda-page-hasher.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "drivers/cuda/cuda-ptx-images.hpp"
#include "kernels-cuda/kernel-abi.h"

namespace kreplay::capture {

namespace {

using namespace cuda_constants;

thread_local bool loadingOwn = false;

constexpr std::uint64_t kStateBytes = 64;               // KreplayQueueState, zeroed: no error, nothing skipped
constexpr std::uint64_t kWarpPageBytes = 16 * 1024;     // a warp per page up to here, else a block
constexpr unsigned kWarpsPerBlock = KREPLAY_BLOCK_THREADS / 32;
static_assert(sizeof(KreplayQueueState) <= kStateBytes, "the queue state fits its slot");

std::uint64_t roundUp(std::uint64_t value, std::uint64_t to) {
  return (value + to - 1) / to * to;
}

const kreplay::cuda::CudaPtxImage* imageFor(int computeCapability) {
  const kreplay::cuda::CudaPtxImage* best = nullptr;
  for (std::size_t index = 0; index < kreplay::cuda::kCudaPtxImageCount; ++index) {
    const auto& image = kreplay::cuda::kCudaPtxImages[index];
    if (image.architecture <= computeCapability && (!best || image.architecture > best->architecture))
      best = &image;
  }
  return best;
}

}  // namespace

bool CudaPageHasher::loadingOwnModule() {
  return loadingOwn;
}

CudaPageHasher::~CudaPageHasher() = default;  // at exit the driver may be gone: contexts keep what they hold

CudaPageHasher::ContextTools& CudaPageHasher::tools(bool withKernels) {
  void* context = nullptr;
  cuda_.check(cuda_.cuCtxGetCurrent(&context), "cuCtxGetCurrent");
  if (context == nullptr) throw DeviceAccessError("no CUDA context is current on the launching thread");
  std::unique_ptr<ContextTools>& found = contexts_[context];
  if (!found) {
    auto made = std::make_unique<ContextTools>();
    cuda_.check(cuda_.cuStreamCreate(&made->stream, kStreamNonBlocking), "cuStreamCreate (the capture's stream)");
    int device = 0;
    cuda_.check(cuda_.cuCtxGetDevice(&device), "cuCtxGetDevice");
    cuda_.check(cuda_.cuDeviceGetAttribute(&made->multiprocessors, kMultiprocessorCount, device),
                "cuDeviceGetAttribute (multiprocessors)");
    found = std::move(made);
  }
  if (withKernels && found->module == nullptr) loadKernels(*found);
  return *found;
}

void CudaPageHasher::loadKernels(ContextTools& tools) {
  int device = 0, major = 0, minor = 0;
  cuda_.check(cuda_.cuCtxGetDevice(&device), "cuCtxGetDevice");
  cuda_.check(cuda_.cuDeviceGetAttribute(&major, kComputeCapabilityMajor, device), "cuDeviceGetAttribute");
  cuda_.check(cuda_.cuDeviceGetAttribute(&minor, kComputeCapabilityMinor, device), "cuDeviceGetAttribute");
  const auto* image = imageFor(major * 10 + minor);
  if (image == nullptr) {
    throw DeviceAccessError("the capture's page-hash kernel needs compute capability 7.5 or newer, and the device has " +
                            std::to_string(major) + "." + std::to_string(minor));
  }
  char log[8192] = {};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
  void* values[] = {log, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof log))};
  const int result = cuda_.cuModuleLoadDataEx(&tools.module, image->text, 2, options, values);
  if (result != kSuccess) {
    tools.module = nullptr;
    try {
      cuda_.check(result, "cuModuleLoadDataEx (the capture's page-hash kernel)");
    } catch (const DeviceAccessError& error) {
      throw DeviceAccessError(std::string(error.what()) + (log[0] != '\0' ? " (" + std::string(log) + ")" : ""));
    }
  }
  cuda_.check(cuda_.cuModuleGetFunction(&tools.hashBlock, tools.module, "kreplay_hash_pages_block"),
              "cuModuleGetFunction (kreplay_hash_pages_block)");
  cuda_.check(cuda_.cuModuleGetFunction(&tools.hashWarp, tools.module, "kreplay_hash_pages_warp"),
              "cuModuleGetFunction (kreplay_hash_pages_warp)");
}

void CudaPageHasher::reserve(ContextTools& tools, std::uint64_t deviceBytes, std::uint64_t hostBytes) {
  if (tools.scratchBytes < deviceBytes) {
    if (tools.scratch != 0) cuda_.check(cuda_.cuMemFree(tools.scratch), "cuMemFree (the capture's scratch)");
    tools.scratch = 0;
    tools.scratchBytes = 0;
    const std::uint64_t bytes = std::max<std::uint64_t>(deviceBytes, 1u << 20);
    cuda_.check(cuda_.cuMemAlloc(&tools.scratch, bytes), "cuMemAlloc (the capture's scratch)");
    tools.scratchBytes = bytes;
    cuda_.check(cuda_.cuMemsetD8Async(tools.scratch, 0, kStateBytes, tools.stream), "cuMemsetD8Async");
  }
  if (tools.pinnedBytes < hostBytes) {
    if (tools.pinned != nullptr) cuda_.check(cuda_.cuMemFreeHost(tools.pinned), "cuMemFreeHost");
    tools.pinned = nullptr;
    tools.pinnedBytes = 0;
    const std::uint64_t bytes = std::max<std::uint64_t>(hostBytes, 1u << 20);
    void* pointer = nullptr;
    cuda_.check(cuda_.cuMemHostAlloc(&pointer, bytes, kHostAllocPortable), "cuMemHostAlloc (the capture's hashes)");
    tools.pinned = static_cast<std::uint8_t*>(pointer);
    tools.pinnedBytes = bytes;
  }
}

void* CudaPageHasher::stream() {
  return tools(false).stream;
}

void CudaPageHasher::hashPages(const std::vector<HashSpan>& spans, std::uint64_t pageBytes, std::uint64_t* hashes) {
  std::vector<KreplaySpan> table;
  std::uint64_t pages = 0;
  for (const HashSpan& span : spans) {
    if (span.bytes == 0) continue;
    table.push_back({span.address, 0, span.bytes, pages});
    pages += (span.bytes + pageBytes - 1) / pageBytes;
  }
  if (pages == 0) return;
  // The module-loaded callbacks of the page-hash module (at load, or later when its code loads lazily)
  // come on this thread while it hashes: they are not the program's.
  struct OwnModule {
    OwnModule() { loadingOwn = true; }
    ~OwnModule() { loadingOwn = false; }
  } own;
  ContextTools& context = tools(true);
  const std::uint64_t tableBytes = table.size() * sizeof(KreplaySpan);
  const std::uint64_t hashesAt = roundUp(kStateBytes + tableBytes, 256);
  reserve(context, hashesAt + 8 * pages, roundUp(tableBytes, 64) + 8 * pages);
  std::uint8_t* hostTable = context.pinned;
  std::uint8_t* hostHashes = context.pinned + roundUp(tableBytes, 64);
  std::memcpy(hostTable, table.data(), tableBytes);
  cuda_.check(cuda_.cuMemcpyHtoDAsync(context.scratch + kStateBytes, hostTable, tableBytes, context.stream),
              "cuMemcpyHtoDAsync (the page-hash span table)");
  const bool warp = pageBytes <= kWarpPageBytes;
  const std::uint64_t blocks = warp ? (pages + kWarpsPerBlock - 1) / kWarpsPerBlock : pages;
  // Twice the blocks that fit at once (8 blocks of 256 threads per multiprocessor), at most one per item.
  const auto grid = static_cast<unsigned>(
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(blocks, 16ull * context.multiprocessors)));
  std::uint64_t spanTable = context.scratch + kStateBytes, destination = context.scratch + hashesAt,
                state = context.scratch;
  auto spanCount = static_cast<std::uint32_t>(table.size());
  void* parameters[] = {&spanTable, &spanCount, &pageBytes, &pages, &destination, &state};
  cuda_.check(cuda_.cuLaunchKernel(warp ? context.hashWarp : context.hashBlock, grid, 1, 1, KREPLAY_BLOCK_THREADS, 1,
                                   1, 0, context.stream, parameters, nullptr),
              "cuLaunchKernel (the capture's page-hash kernel)");
  cuda_.check(cuda_.cuMemcpyDtoHAsync(hostHashes, destination, 8 * pages, context.stream),
              "cuMemcpyDtoHAsync (the page hashes)");
  cuda_.check(cuda_.cuStreamSynchronize(context.stream), "cuStreamSynchronize (hashing pages)");
  std::memcpy(hashes, hostHashes, 8 * pages);
}

}  // namespace kreplay::capture
