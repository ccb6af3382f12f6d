#include "core/dynamic-library.hpp"

#include <dlfcn.h>

namespace kreplay {

DynamicLibrary::DynamicLibrary(const char* name, bool global)
    : handle_(dlopen(name, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL))) {
  if (!handle_) {
    const char* message = dlerror();
    error_ = message ? message : "unknown dlopen error";
  }
}

DynamicLibrary::~DynamicLibrary() {
  if (handle_) dlclose(handle_);
}

void* DynamicLibrary::symbol(const char* name) const {
  return handle_ ? dlsym(handle_, name) : nullptr;
}

}  // namespace kreplay
