// A shared object standing in for NCCL's libnccl.so.2 in the capture glue's test, built as
// build/tests/collective-library/libnccl-kreplay-fixture.so (capture.cmake):
// - its own memory holds a module image, as libnccl's holds the fatbin of its kernels, which
//   kreplay-capture-test --drive-collective-injection copies in and loads through cuModuleLoadData;
// - its code launches kernels, as libnccl's does: kreplayFixtureLaunch finds cuLaunchKernel in the
//   process (as NCCL asks the runtime for the driver's entry points) and calls it, which
//   kreplay-capture-test --drive-collective-caller has it do.
#include <dlfcn.h>

extern "C" {

__attribute__((visibility("default"))) unsigned char kreplayFixtureModuleImage[1 << 16];

/** cuLaunchKernel(function, 1x1x1 blocks of 64 threads, parameters) from this library's code; -1 when no cuLaunchKernel is loaded. */
__attribute__((visibility("default"), noinline)) int kreplayFixtureLaunch(void* function, void** parameters) {
  using Launch = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                         void**);
  auto* launch = reinterpret_cast<Launch>(::dlsym(RTLD_DEFAULT, "cuLaunchKernel"));
  if (launch == nullptr) return -1;
  // Kept in a volatile so that the call is no tail call: this library's frame stays on the stack.
  volatile int result = launch(function, 1, 1, 1, 64, 1, 1, 0, nullptr, parameters, nullptr);
  return result;
}

}  // extern "C"
