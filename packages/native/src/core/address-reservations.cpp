#include "core/address-reservations.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

namespace kreplay {

using Interval = std::pair<std::uint64_t, std::uint64_t>;

std::vector<Interval> coveredParts(const std::map<std::uint64_t, std::uint64_t>& intervals, std::uint64_t start,
                                   std::uint64_t end) {
  std::vector<Interval> parts;
  auto found = intervals.upper_bound(start);
  if (found != intervals.begin()) --found;
  for (; found != intervals.end() && found->first < end; ++found) {
    const std::uint64_t from = std::max(found->first, start);
    const std::uint64_t to = std::min(found->second, end);
    if (from < to) parts.emplace_back(from, to);
  }
  return parts;
}

std::vector<Interval> uncoveredParts(const std::map<std::uint64_t, std::uint64_t>& intervals, std::uint64_t start,
                                     std::uint64_t end) {
  std::vector<Interval> parts;
  std::uint64_t cursor = start;
  for (const auto& [from, to] : coveredParts(intervals, start, end)) {
    if (cursor < from) parts.emplace_back(cursor, from);
    cursor = to;
  }
  if (cursor < end) parts.emplace_back(cursor, end);
  return parts;
}

void addInterval(std::map<std::uint64_t, std::uint64_t>& intervals, std::uint64_t start, std::uint64_t end) {
  if (start >= end) return;
  auto found = intervals.upper_bound(start);
  if (found != intervals.begin() && std::prev(found)->second >= start) {
    --found;
    start = found->first;
    end = std::max(end, found->second);
    found = intervals.erase(found);
  }
  while (found != intervals.end() && found->first <= end) {
    end = std::max(end, found->second);
    found = intervals.erase(found);
  }
  intervals[start] = end;
}

void removeInterval(std::map<std::uint64_t, std::uint64_t>& intervals, std::uint64_t start, std::uint64_t end) {
  if (start >= end) return;
  auto found = intervals.upper_bound(start);
  if (found != intervals.begin()) --found;
  std::vector<Interval> kept;
  while (found != intervals.end() && found->first < end) {
    if (found->second <= start) {
      ++found;
      continue;
    }
    if (found->first < start) kept.emplace_back(found->first, start);
    if (found->second > end) kept.emplace_back(end, found->second);
    found = intervals.erase(found);
  }
  for (const auto& [from, to] : kept) intervals[from] = to;
}

namespace {

std::string hex(std::uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

/** Maps a PROT_NONE placeholder at exactly [start, end); false (nothing mapped) when that is not possible. */
bool mapPlaceholder(std::uint64_t start, std::uint64_t end, int& error) {
  void* hint = reinterpret_cast<void*>(start);
  void* mapped = mmap(hint, end - start, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                      -1, 0);
  if (mapped == MAP_FAILED) {
    error = errno;
    return false;
  }
  if (mapped != hint) {  // a kernel older than 4.17 takes the flag for a hint
    munmap(mapped, end - start);
    error = EEXIST;
    return false;
  }
  return true;
}

}  // namespace

AddressReservations& AddressReservations::process() {
  static auto* reservations = new AddressReservations();  // never destroyed: placeholders live with the process
  return *reservations;
}

std::vector<std::string> AddressReservations::mappingsOverlapping(std::uint64_t start, std::uint64_t end) {
  std::vector<std::string> lines;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    unsigned long long from = 0;
    unsigned long long to = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx", &from, &to) != 2) continue;
    if (from < end && to > start) lines.push_back(line);
  }
  return lines;
}

bool AddressReservations::holdsAny(std::uint64_t start, std::uint64_t end) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !coveredParts(placeholders_, start, end).empty();
}

void AddressReservations::markForDevice(std::uint64_t start, std::uint64_t end) {
  std::lock_guard<std::mutex> lock(mutex_);
  addInterval(forDevice_, start, end);
}

void AddressReservations::releaseForDevice() {
  std::map<std::uint64_t, std::uint64_t> ranges;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ranges.swap(forDevice_);
    for (const auto& [start, end] : ranges) addInterval(releasedForDevice_, start, end);
  }
  for (const auto& [start, end] : ranges) release(start, end);
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> AddressReservations::takeReleasedForDevice() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges(releasedForDevice_.begin(), releasedForDevice_.end());
  releasedForDevice_.clear();
  return ranges;
}

ReservationOutcome AddressReservations::reserve(std::uint64_t address, std::uint64_t bytes, std::uint64_t granule) {
  ReservationOutcome outcome;
  outcome.start = address / granule * granule;
  outcome.end = (address + bytes + granule - 1) / granule * granule;
  if (bytes == 0 || outcome.end <= outcome.start) {
    outcome.failure = "the range is empty or wraps around the address space";
    return outcome;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::map<std::uint64_t, std::uint64_t> ours = placeholders_;
  for (const auto& [from, to] : released_) addInterval(ours, from, to);
  std::vector<Interval> mapped;
  for (const auto& [from, to] : uncoveredParts(ours, outcome.start, outcome.end)) {
    int error = 0;
    if (!mapPlaceholder(from, to, error)) {
      for (const auto& [undoFrom, undoTo] : mapped) munmap(reinterpret_cast<void*>(undoFrom), undoTo - undoFrom);
      outcome.holders = mappingsOverlapping(from, to);
      outcome.failure = "[" + hex(from) + ", " + hex(to) + ") could not be reserved: " + std::strerror(error);
      return outcome;
    }
    mapped.emplace_back(from, to);
  }
  for (const auto& [from, to] : mapped) addInterval(placeholders_, from, to);
  outcome.reserved = true;
  return outcome;
}

bool AddressReservations::release(std::uint64_t start, std::uint64_t end) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto held = coveredParts(placeholders_, start, end);
  std::uint64_t heldBytes = 0;
  for (const auto& [from, to] : held) {
    munmap(reinterpret_cast<void*>(from), to - from);
    removeInterval(placeholders_, from, to);
    addInterval(released_, from, to);
    heldBytes += to - from;
  }
  return heldBytes == end - start;
}

void AddressReservations::restore(std::uint64_t start, std::uint64_t end) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [from, to] : coveredParts(released_, start, end)) {
    removeInterval(released_, from, to);
    int error = 0;
    if (mapPlaceholder(from, to, error)) addInterval(placeholders_, from, to);
  }
}

bool AddressReservations::holds(std::uint64_t start, std::uint64_t end) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto parts = uncoveredParts(placeholders_, start, end);
  return parts.empty();
}

}  // namespace kreplay
