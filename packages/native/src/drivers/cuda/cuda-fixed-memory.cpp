#include "drivers/cuda/cuda-fixed-memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <utility>

#include "core/address-reservations.hpp"
#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-host-pinning.hpp"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

namespace kreplay::cuda {

namespace {

std::string hex(std::uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string rangeText(std::uint64_t start, std::uint64_t end) {
  return "[" + hex(start) + ", " + hex(end) + ")";
}

/** " (held by: <maps lines>)" or "" when /proc/self/maps shows nothing there. */
std::string holdersText(std::uint64_t start, std::uint64_t end) {
  const auto lines = AddressReservations::mappingsOverlapping(start, end);
  if (lines.empty()) return "";
  std::string text = " (held by: ";
  for (std::size_t index = 0; index < lines.size() && index < 4; ++index) text += (index ? "; " : "") + lines[index];
  return text + ")";
}

CUmemAllocationProp deviceProperties(int device) {
  return pinnedAllocation({CU_MEM_LOCATION_TYPE_DEVICE, device});
}

}  // namespace

CudaFixedMemory::CudaFixedMemory(std::vector<std::shared_ptr<CudaDevice>> devices) : devices_(std::move(devices)) {}

CudaFixedMemory::~CudaFixedMemory() {
  releaseAll();
}

std::uint64_t CudaFixedMemory::granularity(std::uint32_t agent) {
  const auto found = granularities_.find(agent);
  if (found != granularities_.end()) return found->second;
  const CudaApi& cuda = api();
  if (!cuda.cuMemAddressReserve || !cuda.cuMemAddressFree || !cuda.cuMemCreate || !cuda.cuMemRelease ||
      !cuda.cuMemMap || !cuda.cuMemUnmap || !cuda.cuMemSetAccess || !cuda.cuMemGetAllocationGranularity) {
    throw OperationFailure("unsupported",
                           "this libcuda has no virtual memory management calls (cuMemAddressReserve, cuMemCreate, "
                           "cuMemMap); device memory at a chosen address needs CUDA 10.2 or later");
  }
  const CUmemAllocationProp properties = deviceProperties(devices_.at(agent)->context()->device());
  std::size_t value = 0;
  check(cuda, cuda.cuMemGetAllocationGranularity(&value, &properties, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
        "cuMemGetAllocationGranularity");
  if (value == 0 || (value & (value - 1)) != 0) value = 2 << 20;
  granularities_[agent] = value;
  return value;
}

bool CudaFixedMemory::reserveWindow(std::uint64_t start, std::uint64_t end, std::string& offered) {
  const CudaApi& cuda = api();
  AddressReservations& reservations = AddressReservations::process();
  reservations.release(start, end);
  CUdeviceptr reserved = 0;
  const CUresult result = cuda.cuMemAddressReserve(&reserved, end - start, 0, start, 0);
  if (result == CUDA_SUCCESS && reserved == start) {
    windows_[start] = {end, 0};
    return true;
  }
  if (result == CUDA_SUCCESS) cuda.cuMemAddressFree(reserved, end - start);
  reservations.restore(start, end);
  offered = result == CUDA_SUCCESS ? "it offered " + hex(reserved) : "cuMemAddressReserve failed with " + cuda.errorName(result);
  return false;
}

void CudaFixedMemory::freeWindow(std::uint64_t start) {
  const auto found = windows_.find(start);
  if (found == windows_.end()) return;
  api().cuMemAddressFree(start, found->second.end - start);
  AddressReservations::process().restore(start, found->second.end);
  windows_.erase(found);
}

bool CudaFixedMemory::reserveWindows(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& parts, std::uint64_t start,
                                     std::uint64_t end, std::string& offered) {
  std::vector<std::uint64_t> made;
  for (const auto& [from, to] : parts) {
    if (to <= start || from >= end) continue;  // not needed by [start, end)
    if (!reserveWindow(from, to, offered)) {
      for (const std::uint64_t window : made) freeWindow(window);
      return false;
    }
    made.push_back(from);
  }
  return true;
}

std::map<std::uint64_t, std::uint64_t> CudaFixedMemory::windowIntervals() const {
  std::map<std::uint64_t, std::uint64_t> intervals;
  for (const auto& [from, window] : windows_) intervals[from] = window.end;
  return intervals;
}

std::pair<std::uint64_t, std::uint64_t> CudaFixedMemory::widened(std::uint64_t start, std::uint64_t end) {
  return {start / kWindowAlignment * kWindowAlignment, (end + kWindowAlignment - 1) / kWindowAlignment * kWindowAlignment};
}

bool CudaFixedMemory::placeholderBeside(std::uint64_t start, std::uint64_t end) {
  const auto [wideStart, wideEnd] = widened(start, end);
  for (const auto& [from, to] : uncoveredParts({{start, end}}, wideStart, wideEnd)) {
    if (AddressReservations::process().holdsAny(from, to)) return true;
  }
  return false;
}

std::vector<std::uint64_t> CudaFixedMemory::windowsFor(std::uint64_t start, std::uint64_t end) {
  const std::map<std::uint64_t, std::uint64_t> covered = windowIntervals();
  // First the range widened to whole windows (CUDA honours only aligned hints), then, where that
  // meets memory of others or host memory placed (or kept a placeholder) beside it, the range itself.
  const auto [wideStart, wideEnd] = widened(start, end);
  bool nearHost = placeholderBeside(start, end);
  for (const auto& [from, mapping] : mappings_) nearHost = nearHost || (mapping.host && from < wideEnd && mapping.end > wideStart);
  std::string offered = "host memory is mapped next to it";
  const bool placed = (!nearHost && reserveWindows(uncoveredParts(covered, wideStart, wideEnd), start, end, offered)) ||
                      reserveWindows(uncoveredParts(covered, start, end), start, end, offered);
  if (!placed) {
    throw OperationFailure("address-taken", "CUDA could not reserve device addresses " + rangeText(start, end) +
                                                " exactly (" + offered + ")" + holdersText(start, end));
  }
  std::vector<std::uint64_t> used;
  for (auto& [from, window] : windows_) {
    if (window.end <= start || from >= end) continue;
    if (window.held) {
      window.held = false;  // the hold's reference is this mapping's now
    } else {
      window.references += 1;
    }
    used.push_back(from);
  }
  return used;
}

void CudaFixedMemory::holdWindows(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges) {
  if (ranges.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  const CudaApi& cuda = api();
  if (!cuda.cuMemAddressReserve || !cuda.cuMemAddressFree) return;
  devices_.front()->context()->makeCurrent();
  for (const auto& [start, end] : ranges) {
    // Not wider where a placeholder for host memory lies beside the range.
    const bool nearHost = placeholderBeside(start, end);
    const auto [wideStart, wideEnd] = nearHost ? std::make_pair(start, end) : widened(start, end);
    std::string offered;
    for (const auto& [from, to] : uncoveredParts(windowIntervals(), wideStart, wideEnd)) {
      if (!reserveWindow(from, to, offered)) continue;  // allocateAt tries again, and says why
      windows_.at(from).references = 1;
      windows_.at(from).held = true;
    }
  }
}

void CudaFixedMemory::leaveWindows(const std::vector<std::uint64_t>& starts) {
  for (const std::uint64_t start : starts) {
    const auto found = windows_.find(start);
    if (found != windows_.end() && --found->second.references == 0) freeWindow(start);
  }
}

CUmemGenericAllocationHandle CudaFixedMemory::mapInWindows(std::uint64_t start, std::uint64_t end,
                                                           const CUmemAllocationProp& properties,
                                                           const std::vector<CUmemAccessDesc>& access,
                                                           const std::vector<std::uint64_t>& windows, const char* what) {
  const CudaApi& cuda = api();
  const std::uint64_t bytes = end - start;
  CUmemGenericAllocationHandle handle = 0;
  CUresult step = cuda.cuMemCreate(&handle, bytes, &properties, 0);
  const char* failed = "cuMemCreate";
  if (step == CUDA_SUCCESS) {
    step = cuda.cuMemMap(start, bytes, 0, handle, 0);
    failed = "cuMemMap";
    if (step == CUDA_SUCCESS) {
      step = cuda.cuMemSetAccess(start, bytes, access.data(), access.size());
      failed = "cuMemSetAccess";
      if (step != CUDA_SUCCESS) cuda.cuMemUnmap(start, bytes);
    }
    if (step != CUDA_SUCCESS) cuda.cuMemRelease(handle);
  }
  if (step != CUDA_SUCCESS) {
    leaveWindows(windows);
    throw OperationFailure(cuda.errorName(step), std::string(failed) + " of " + std::to_string(bytes) + " bytes of " +
                                                     what + " at " + rangeText(start, end) +
                                                     " failed: " + cuda.errorText(step));
  }
  return handle;
}

CudaFixedMemory::Mapping CudaFixedMemory::makeDevice(std::uint32_t agent, std::uint64_t start, std::uint64_t end) {
  const CudaDevice& device = *devices_.at(agent);
  device.context()->makeCurrent();
  const std::vector<std::uint64_t> windows = windowsFor(start, end);
  const CUmemAllocationProp properties = deviceProperties(device.context()->device());
  const std::vector<CUmemAccessDesc> access{{properties.location, CU_MEM_ACCESS_FLAGS_PROT_READWRITE}};
  const CUmemGenericAllocationHandle handle = mapInWindows(start, end, properties, access, windows, "device memory");
  return {end, false, agent, handle, 0, windows};
}

bool CudaFixedMemory::insideWindows(std::uint64_t start, std::uint64_t end) const {
  return uncoveredParts(windowIntervals(), start, end).empty();
}

CudaFixedMemory::Mapping CudaFixedMemory::makeHostInWindows(std::uint64_t start, std::uint64_t end) {
  devices_.front()->context()->makeCurrent();
  const std::vector<std::uint64_t> windows = windowsFor(start, end);
  const CUmemAllocationProp properties = pinnedAllocation({CU_MEM_LOCATION_TYPE_HOST, 0});
  // The CPU and every device read and write it.
  std::vector<CUmemAccessDesc> access;
  for (const auto& device : devices_) {
    access.push_back({{CU_MEM_LOCATION_TYPE_DEVICE, device->context()->device()}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE});
  }
  access.push_back({{CU_MEM_LOCATION_TYPE_HOST, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE});
  const CUmemGenericAllocationHandle handle = mapInWindows(start, end, properties, access, windows, "host memory");
  return {end, true, 0, handle, 0, windows};
}

CudaFixedMemory::Mapping CudaFixedMemory::makeHost(std::uint64_t start, std::uint64_t end) {
  if (insideWindows(start, end)) return makeHostInWindows(start, end);
  const CudaApi& cuda = api();
  if (!canRegisterHostMemory(cuda)) {
    throw OperationFailure("unsupported", "this libcuda has no cuMemHostRegister_v2 or cuMemHostGetDevicePointer_v2");
  }
  devices_.front()->context()->makeCurrent();
  const std::uint64_t bytes = end - start;
  AddressReservations& reservations = AddressReservations::process();
  reservations.release(start, end);
  void* hint = pointerOf(start);
  void* mapped =
      mmap(hint, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (mapped != hint) {
    if (mapped != MAP_FAILED) munmap(mapped, bytes);
    const std::string holders = holdersText(start, end);
    reservations.restore(start, end);
    throw OperationFailure("address-taken", "host addresses " + rangeText(start, end) + " are taken" + holders);
  }
  const auto undo = [&] {
    munmap(hint, bytes);
    reservations.restore(start, end);
  };
  const HostRegistration registration = registerHostAtSameAddress(cuda, hint, bytes);
  if (registration.registered != CUDA_SUCCESS) {
    undo();
    throw OperationFailure(cuda.errorName(registration.registered), "cuMemHostRegister of " + rangeText(start, end) +
                                                                        " failed: " + cuda.errorText(registration.registered));
  }
  if (!registration.atSameAddress(hint)) {
    undo();
    throw OperationFailure("address-taken", "the device reaches the host memory at " + rangeText(start, end) + " at " +
                                                (registration.found == CUDA_SUCCESS ? hex(registration.devicePointer)
                                                                                    : cuda.errorName(registration.found)) +
                                                ", not at the same address");
  }
  return {end, true, 0, 0, 0, {}};
}

void CudaFixedMemory::unmap(std::uint64_t start, const Mapping& mapping) {
  const std::uint64_t bytes = mapping.end - start;
  if (mapping.host && mapping.handle == 0) {
    if (devices_.front()->context()->tryMakeCurrent()) api().cuMemHostUnregister(pointerOf(start));
    munmap(pointerOf(start), bytes);
    AddressReservations::process().restore(start, mapping.end);
    return;
  }
  const CudaDevice& device = *devices_.at(mapping.agent);  // CUDA host memory: agent 0's context
  if (!device.context()->tryMakeCurrent()) return;
  device.api().cuMemUnmap(start, bytes);
  device.api().cuMemRelease(mapping.handle);
  leaveWindows(mapping.windows);
}

std::vector<std::uint64_t> CudaFixedMemory::acquire(std::uint64_t start, std::uint64_t end, bool host,
                                                    std::uint32_t agent) {
  // The mappings already there must be of the same kind; the gaps between them get new ones.
  std::map<std::uint64_t, std::uint64_t> covered;
  auto found = mappings_.upper_bound(start);
  if (found != mappings_.begin()) --found;
  for (; found != mappings_.end() && found->first < end; ++found) {
    if (found->second.end <= start) continue;
    if (found->second.host != host || found->second.agent != agent) {
      throw OperationFailure("overlap", rangeText(start, end) + " meets the " +
                                            (found->second.host ? std::string("host memory")
                                                                : "device memory of agent " + std::to_string(found->second.agent)) +
                                            " mapped at " + rangeText(found->first, found->second.end));
    }
    covered[found->first] = found->second.end;
  }
  std::vector<std::pair<std::uint64_t, Mapping>> made;
  try {
    for (const auto& [from, to] : uncoveredParts(covered, start, end)) {
      made.emplace_back(from, host ? makeHost(from, to) : makeDevice(agent, from, to));
    }
  } catch (...) {
    for (const auto& [from, mapping] : made) unmap(from, mapping);
    throw;
  }
  for (auto& [from, mapping] : made) {
    mappings_[from] = mapping;
    covered[from] = mapping.end;
  }
  std::vector<std::uint64_t> starts;
  for (const auto& entry : covered) {
    mappings_.at(entry.first).references += 1;
    starts.push_back(entry.first);
  }
  return starts;
}

std::uint64_t CudaFixedMemory::mapDevice(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::uint64_t granule = granularity(agent);
  const std::uint64_t start = address / granule * granule;
  const std::uint64_t end = (address + bytes + granule - 1) / granule * granule;
  allocations_[nextToken_] = acquire(start, end, false, agent);
  return nextToken_++;
}

std::uint64_t CudaFixedMemory::mapHost(std::uint64_t address, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Inside windows, whole granules of CUDA host memory; elsewhere, pages.
  const auto widen = [&](std::uint64_t unit) {
    return std::make_pair(address / unit * unit, (address + bytes + unit - 1) / unit * unit);
  };
  auto [start, end] = widen(static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)));
  if (!windows_.empty()) {
    const auto [grainStart, grainEnd] = widen(granularity(0));
    if (insideWindows(grainStart, grainEnd)) {
      start = grainStart;
      end = grainEnd;
    }
  }
  allocations_[nextToken_] = acquire(start, end, true, 0);
  return nextToken_++;
}

void CudaFixedMemory::release(std::uint64_t token) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = allocations_.find(token);
  if (found == allocations_.end()) return;
  for (const std::uint64_t start : found->second) {
    Mapping& mapping = mappings_.at(start);
    if (--mapping.references > 0) continue;
    unmap(start, mapping);
    mappings_.erase(start);
  }
  allocations_.erase(found);
}

void CudaFixedMemory::releaseAll() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [start, mapping] : mappings_) unmap(start, mapping);
  mappings_.clear();
  allocations_.clear();
  std::vector<std::uint64_t> left;
  for (const auto& entry : windows_) left.push_back(entry.first);
  if (devices_.front()->context()->tryMakeCurrent()) {
    for (const std::uint64_t start : left) freeWindow(start);
  }
}

}  // namespace kreplay::cuda
