// A shared library opened with dlopen, closed when it goes out of scope.
#pragma once

#include <string>

namespace kreplay {

class DynamicLibrary {
 public:
  /** `global`: RTLD_GLOBAL, so that libraries opened later resolve their needs against this one. */
  explicit DynamicLibrary(const char* name, bool global = false);
  ~DynamicLibrary();
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  /** dlerror() of a failed open. */
  const std::string& error() const { return error_; }
  void* symbol(const char* name) const;

 private:
  void* handle_;
  std::string error_;
};

}  // namespace kreplay
