// Memory at exact addresses (a capture replayed at its own addresses): device memory mapped with
// the virtual memory calls (cuMemAddressReserve at the address, cuMemCreate, cuMemMap,
// cuMemSetAccess) and host memory mapped with mmap and registered (cuMemHostRegister). Ranges are
// widened to whole granules (device: the allocation granularity; host: pages); ranges that share a
// granule share its mapping, which lives while one of them does. Placeholders of
// core/address-reservations.hpp are taken out for a mapping and put back when it goes.
// Device memory is mapped inside windows: address reservations widened to 32 MiB, because CUDA
// honours only a hint aligned that way (on an H200 with driver 580, a reservation hinted at a
// 2 MiB-aligned address was placed elsewhere and one at a 32 MiB-aligned address was placed there;
// experiments/native-probes/address-alignment.cpp). Where a window would meet memory of others, the
// range itself is tried. Windows are shared by the mappings inside them and freed with the last.
// Host memory whose 2 MiB granules lie inside windows is mapped there too, as CUDA host memory
// (cuMemCreate at CU_MEM_LOCATION_TYPE_HOST, reachable by the CPU and every device): CUDA places a
// program's pinned host memory among its device memory, and a 32 MiB window around a device range
// often holds some (experiments/native-probes/address-host-vmm.cpp: such memory is read and written by
// the CPU, by copies and by the device on an H200).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "drivers/cuda/cuda-device.hpp"

namespace kreplay::cuda {

class CudaFixedMemory {
 public:
  explicit CudaFixedMemory(std::vector<std::shared_ptr<CudaDevice>> devices);
  ~CudaFixedMemory();
  CudaFixedMemory(const CudaFixedMemory&) = delete;
  CudaFixedMemory& operator=(const CudaFixedMemory&) = delete;

  /**
   * Device memory of `agent` over [address, address + bytes).
   * @returns the allocation's token, for release.
   * @throws OperationFailure `unsupported` without the calls, `address-taken` when CUDA cannot
   * reserve the exact range, `overlap` when it meets another agent's or host mapping, or the CUDA error.
   */
  std::uint64_t mapDevice(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes);
  /**
   * Host memory over [address, address + bytes), pinned and mapped for every device at the same
   * address: inside windows, CUDA host memory over its 2 MiB granules; elsewhere mmap'd pages, registered.
   */
  std::uint64_t mapHost(std::uint64_t address, std::uint64_t bytes);
  /** Lets go of an allocation (its token): mappings no other allocation shares are unmapped. */
  void release(std::uint64_t token);
  /** Unmaps everything and frees every window (at shutdown). */
  void releaseAll();
  /**
   * Reserves the windows of ranges where device memory will be placed, right after CUDA started
   * (their placeholders were given up before it): each is held until the first allocation inside it.
   * A range that cannot be had is left for allocateAt to try and report.
   */
  void holdWindows(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges);

 private:
  struct Mapping {
    std::uint64_t end;
    bool host;
    std::uint32_t agent;
    CUmemGenericAllocationHandle handle;  // 0 for host memory mapped with mmap
    std::uint32_t references;
    std::vector<std::uint64_t> windows;  // the windows it lies in (device memory, CUDA host memory)
  };
  struct Window {
    std::uint64_t end;
    std::uint32_t references;  // mappings inside it, or 1 while held for the first
    bool held = false;         // reserved by holdWindows, no mapping yet
  };
  static constexpr std::uint64_t kWindowAlignment = std::uint64_t{32} << 20;

  /** The mappings covering [start, end) with `host` and `agent`, new ones made for the gaps; each referenced once more. */
  std::vector<std::uint64_t> acquire(std::uint64_t start, std::uint64_t end, bool host, std::uint32_t agent);
  Mapping makeDevice(std::uint32_t agent, std::uint64_t start, std::uint64_t end);
  Mapping makeHost(std::uint64_t start, std::uint64_t end);
  /**
   * Creates memory of `properties` over [start, end) inside `windows` (which it leaves on failure)
   * and grants `access`. @throws OperationFailure naming the step, `what` and the range.
   */
  CUmemGenericAllocationHandle mapInWindows(std::uint64_t start, std::uint64_t end, const CUmemAllocationProp& properties,
                                            const std::vector<CUmemAccessDesc>& access,
                                            const std::vector<std::uint64_t>& windows, const char* what);
  /** CUDA host memory over [start, end), which windows cover. */
  Mapping makeHostInWindows(std::uint64_t start, std::uint64_t end);
  /** Whether windows cover all of [start, end). */
  bool insideWindows(std::uint64_t start, std::uint64_t end) const;
  void unmap(std::uint64_t start, const Mapping& mapping);
  /** The windows as intervals (start -> end). */
  std::map<std::uint64_t, std::uint64_t> windowIntervals() const;
  /** [start, end) widened to whole windows. */
  static std::pair<std::uint64_t, std::uint64_t> widened(std::uint64_t start, std::uint64_t end);
  /** Whether a placeholder (for host memory, or a range not marked for device memory) lies in the window around [start, end). */
  static bool placeholderBeside(std::uint64_t start, std::uint64_t end);
  /** Reserves exactly [start, end) as a window, or says in `offered` what CUDA did instead. */
  bool reserveWindow(std::uint64_t start, std::uint64_t end, std::string& offered);
  void freeWindow(std::uint64_t start);
  /** Reserves each of `parts` that [start, end) needs as a window; all or none (`offered` says why not). */
  bool reserveWindows(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& parts, std::uint64_t start,
                      std::uint64_t end, std::string& offered);
  /**
   * The windows [start, end) lies in, made where missing and each referenced once more.
   * @throws OperationFailure `address-taken` naming the range, what CUDA offered and what holds it.
   */
  std::vector<std::uint64_t> windowsFor(std::uint64_t start, std::uint64_t end);
  /** Drops one reference to each window; a window left with none is freed. */
  void leaveWindows(const std::vector<std::uint64_t>& starts);
  const CudaApi& api() const { return devices_.front()->api(); }
  std::uint64_t granularity(std::uint32_t agent);

  std::vector<std::shared_ptr<CudaDevice>> devices_;
  std::mutex mutex_;
  std::map<std::uint64_t, Mapping> mappings_;                        // by start; disjoint
  std::map<std::uint64_t, Window> windows_;                          // by start; disjoint
  std::map<std::uint64_t, std::vector<std::uint64_t>> allocations_;  // token -> its mappings' starts
  std::uint64_t nextToken_ = 1;
  std::map<std::uint32_t, std::uint64_t> granularities_;
};

}  // namespace kreplay::cuda
