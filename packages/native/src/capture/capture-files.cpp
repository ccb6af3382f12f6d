#include "capture/capture-files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "capture/capture-writer.hpp"

namespace kreplay::capture {

namespace {

[[noreturn]] void failWith(const std::string& what, const std::string& path) {
  throw CaptureWriteError("[native] [capture] could not " + what + " " + path + ": " + std::strerror(errno) +
                          ". Check that the capture folder is writable and its disk has space.");
}

}  // namespace

void makeDirectory(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) failWith("create the folder", path);
}

void writeFile(const std::string& path, const std::uint8_t* data, std::size_t size, bool sync) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) failWith("create", path);
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      const int error = written == 0 ? ENOSPC : errno;
      ::close(fd);
      errno = error;
      failWith("write", path);
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  if (sync && ::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    failWith("sync", path);
  }
  if (::close(fd) != 0) failWith("close", path);
}

namespace {

/** Opens `path` with `flags`, calls `sync` on it, closes it; a failure says `what` and names the file. */
void syncOpened(const std::string& path, int flags, int (*sync)(int), const char* opening, const char* what) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) failWith(opening, path);
  const int result = sync(fd);
  const int error = errno;
  ::close(fd);
  errno = error;
  if (result != 0) failWith(what, path);
}

}  // namespace

void syncFile(const std::string& path) {
  syncOpened(path, O_RDONLY, ::fdatasync, "open", "sync");
}

void syncFileSystem(const std::string& path) {
  syncOpened(path, O_RDONLY | O_DIRECTORY, ::syncfs, "open the folder", "sync the file system of");
}

void syncDirectory(const std::string& path) {
  syncOpened(path, O_RDONLY | O_DIRECTORY, ::fsync, "open the folder", "sync the folder");
}

void renameFile(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) failWith("rename into place", to);
}

std::string temporaryName(const std::string& name) {
  return ".tmp-" + name + "-" + std::to_string(::getpid());
}

std::string sequenceName(std::uint64_t sequence) {
  char text[32];
  std::snprintf(text, sizeof text, "%08llu", static_cast<unsigned long long>(sequence));
  return text;
}

}  // namespace kreplay::capture
