#include "capture/inject/process-capture-folder.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "capture/capture-writer.hpp"

namespace kreplay::capture {

namespace {

constexpr int kMostTries = 1000;

[[noreturn]] void failWith(const std::string& path) {
  throw CaptureWriteError("[native] [capture] could not create the folder " + path + ": " +
                          std::strerror(errno) + ". Check that the capture folder is writable.");
}

void makeShared(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) failWith(path);
}

}  // namespace

std::string claimProcessFolder(const std::string& directory, std::int64_t pid) {
  makeShared(directory);
  if (::access((directory + "/manifest.json").c_str(), F_OK) == 0) {
    throw CaptureWriteError("[native] [capture] " + directory +
                            " already holds a capture (manifest.json). Choose an empty folder.");
  }
  makeShared(directory + "/processes");
  const std::string base = directory + "/processes/" + std::to_string(pid);
  for (int again = 0; again < kMostTries; ++again) {
    const std::string path = again == 0 ? base : base + "-" + std::to_string(again);
    if (::mkdir(path.c_str(), 0755) == 0) return path;  // mkdir fails on an existing folder: the claim
    if (errno != EEXIST) failWith(path);
  }
  errno = EEXIST;
  failWith(base + "-" + std::to_string(kMostTries));
}

}  // namespace kreplay::capture
