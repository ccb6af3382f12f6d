// What the prebuild's files would otherwise take from a glibc newer than 2.28 (src/portable/
// portable.cmake links this file into them, and --wraps each function glibc-compat-symbols.cmake
// lists). Measured with objdump -T on the files linked on Debian 12 (glibc 2.36, GCC 12, libstdc++
// and libgcc linked in); each function is here because a file needed it:
// - pthread_* and dl* (GLIBC_2.34, when libpthread and libdl moved into libc): the same functions
//   exist under their first version (x86-64: GLIBC_2.2.5, arm64: GLIBC_2.17), in libpthread.so.0 and
//   libdl.so.2 before 2.34: __wrap_NAME jumps to NAME@first-version.
// - stat, fstat64 (GLIBC_2.33, when they stopped being inline calls of __xstat and __fxstat64): the
//   old entry points with the old version number.
// - _dl_find_object (GLIBC_2.35; libgcc's unwinder looks up the .eh_frame of a code address with it):
//   the same answer from dl_iterate_phdr (the PT_GNU_EH_FRAME of the object holding the address).
// - arc4random (GLIBC_2.36; libstdc++'s std::random_device): getrandom (GLIBC_2.25).
// - __libc_single_threaded (GLIBC_2.32, a variable libstdc++ reads to skip atomic operations): a
//   hidden one of our own that always says "maybe several threads", which is always correct.
#include <dlfcn.h>
#include <link.h>
#include <sys/random.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

#if defined(__x86_64__)
#define KREPLAY_GLIBC_FIRST "GLIBC_2.2.5"
#define KREPLAY_TAIL_CALL(target) "jmp " target "@PLT\n"
#define KREPLAY_STAT_VERSION 1  // _STAT_VER_LINUX
#elif defined(__aarch64__)
#define KREPLAY_GLIBC_FIRST "GLIBC_2.17"
#define KREPLAY_TAIL_CALL(target) "b " target "\n"
#define KREPLAY_STAT_VERSION 0  // _STAT_VER_KERNEL
#else
#error "src/portable/glibc-compat.cpp knows the first glibc symbol versions of x86-64 and arm64 only"
#endif

// __wrap_NAME: a tail call of NAME@KREPLAY_GLIBC_FIRST, whatever NAME's arguments.
#define KREPLAY_FIRST_VERSION(name)                                                           \
  __asm__(".symver kreplay_glibc_" #name ", " #name "@" KREPLAY_GLIBC_FIRST "\n"              \
          ".text\n"                                                                           \
          ".globl __wrap_" #name "\n"                                                         \
          ".hidden __wrap_" #name "\n"                                                        \
          ".type __wrap_" #name ", %function\n"                                               \
          "__wrap_" #name ":\n" KREPLAY_TAIL_CALL("kreplay_glibc_" #name) ".size __wrap_" #name \
          ", .-__wrap_" #name "\n")

KREPLAY_FIRST_VERSION(pthread_create);
KREPLAY_FIRST_VERSION(pthread_detach);
KREPLAY_FIRST_VERSION(pthread_join);
KREPLAY_FIRST_VERSION(pthread_once);
KREPLAY_FIRST_VERSION(pthread_key_create);
KREPLAY_FIRST_VERSION(__pthread_key_create);
KREPLAY_FIRST_VERSION(pthread_key_delete);
KREPLAY_FIRST_VERSION(pthread_getspecific);
KREPLAY_FIRST_VERSION(pthread_setspecific);
KREPLAY_FIRST_VERSION(pthread_rwlock_rdlock);
KREPLAY_FIRST_VERSION(pthread_rwlock_wrlock);
KREPLAY_FIRST_VERSION(pthread_rwlock_unlock);
KREPLAY_FIRST_VERSION(dlopen);
KREPLAY_FIRST_VERSION(dlclose);
KREPLAY_FIRST_VERSION(dlsym);
KREPLAY_FIRST_VERSION(dlerror);
KREPLAY_FIRST_VERSION(dladdr);

extern "C" {

int kreplay_glibc___xstat(int version, const char* path, struct stat* buffer);
int kreplay_glibc___fxstat64(int version, int descriptor, struct stat64* buffer);
__asm__(".symver kreplay_glibc___xstat, __xstat@" KREPLAY_GLIBC_FIRST);
__asm__(".symver kreplay_glibc___fxstat64, __fxstat64@" KREPLAY_GLIBC_FIRST);

__attribute__((visibility("hidden"))) int __wrap_stat(const char* path, struct stat* buffer) {
  return kreplay_glibc___xstat(KREPLAY_STAT_VERSION, path, buffer);
}

__attribute__((visibility("hidden"))) int __wrap_fstat64(int descriptor, struct stat64* buffer) {
  return kreplay_glibc___fxstat64(KREPLAY_STAT_VERSION, descriptor, buffer);
}

__attribute__((visibility("hidden"))) std::uint32_t __wrap_arc4random(void) {
  std::uint32_t value = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(&value);
  std::size_t filled = 0;
  while (filled < sizeof value) {
    const ssize_t got = getrandom(bytes + filled, sizeof value - filled, 0);
    if (got > 0) {
      filled += static_cast<std::size_t>(got);
    } else if (got < 0 && errno != EINTR) {
      std::abort();  // as glibc's arc4random does when the kernel gives no randomness
    }
  }
  return value;
}

namespace {

struct FoundObject {
  std::uintptr_t address;
  dl_find_object* result;
  bool found;
};

int findObject(dl_phdr_info* info, std::size_t, void* data) {
  auto* search = static_cast<FoundObject*>(data);
  std::uintptr_t start = UINTPTR_MAX, end = 0;
  bool holds = false;
  const void* ehFrame = nullptr;
  for (int index = 0; index < info->dlpi_phnum; ++index) {
    const ElfW(Phdr)& header = info->dlpi_phdr[index];
    const std::uintptr_t segment = info->dlpi_addr + header.p_vaddr;
    if (header.p_type == PT_LOAD) {
      if (segment < start) start = segment;
      if (segment + header.p_memsz > end) end = segment + header.p_memsz;
      if (search->address >= segment && search->address < segment + header.p_memsz) holds = true;
    } else if (header.p_type == PT_GNU_EH_FRAME) {
      ehFrame = reinterpret_cast<const void*>(segment);
    }
  }
  if (!holds) return 0;
  *search->result = dl_find_object{};
  search->result->dlfo_map_start = reinterpret_cast<void*>(start);
  search->result->dlfo_map_end = reinterpret_cast<void*>(end);
  search->result->dlfo_link_map = nullptr;  // dl_iterate_phdr does not tell it; libgcc reads only the frame
  search->result->dlfo_eh_frame = const_cast<void*>(ehFrame);
  search->found = true;
  return 1;
}

}  // namespace

__attribute__((visibility("hidden"))) int __wrap__dl_find_object(void* address, dl_find_object* result) {
  FoundObject search{reinterpret_cast<std::uintptr_t>(address), result, false};
  dl_iterate_phdr(findObject, &search);
  return search.found ? 0 : -1;
}

__attribute__((visibility("hidden"))) char __libc_single_threaded = 0;

}  // extern "C"
