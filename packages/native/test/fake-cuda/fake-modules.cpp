// Modules and functions of the fake libcuda: a module is whatever image it is given (PTX or cubin)
// with its own copy of the fixture globals; a function is found by name among the fake's kernels
// (fake-kernels.cpp), one handle per name.
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "fake-cuda-results.hpp"
#include "fake-kernels.hpp"
#include "fake-launches.hpp"

using kreplay_fake::CUdeviceptr;
using kreplay_fake::CUresult;
using kreplay_fake::kInvalidImage;
using kreplay_fake::kNotFound;
using kreplay_fake::kSuccess;
using kreplay_fake::kUnsupportedPtxVersion;

/** A loaded module: its own copy of the fixture globals (zeroed, 256-byte aligned). */
struct CUmod_st {
  std::map<std::string, std::pair<void*, std::size_t>> globals;
  CUmod_st() {
    for (const auto& global : kreplay_fake::moduleGlobals()) {
      void* storage = std::aligned_alloc(256, (global.bytes + 255) / 256 * 256);
      std::memset(storage, 0, global.bytes);
      globals[global.name] = {storage, global.bytes};
    }
  }
  ~CUmod_st() {
    for (auto& entry : globals) std::free(entry.second.first);
  }
};

namespace {

std::mutex functionsMutex;
std::map<std::string, CUfunc_st> functions;

}  // namespace

extern "C" {

CUresult cuModuleLoadDataEx(CUmod_st** module, const void* image, unsigned, int*, void**) {
  // PTX text or an ELF cubin alike: the fake finds kernels by name, whatever the image holds.
  if (!image || *static_cast<const unsigned char*>(image) == 0) return kInvalidImage;
  // Except PTX of an ISA newer than the 9.0 a CUDA 13.0 driver takes, which a real driver refuses.
  const char* text = static_cast<const char*>(image);
  if (text[0] == '/' || text[0] == '.' || text[0] == ' ' || text[0] == '\n' || text[0] == '\t') {
    const char* version = std::strstr(text, ".version ");
    if (version && std::atof(version + 9) > 9.0 + 1e-9) return kUnsupportedPtxVersion;
  }
  *module = new CUmod_st();
  return kSuccess;
}
CUresult cuModuleUnload(CUmod_st* module) {
  delete module;
  return kSuccess;
}
CUresult cuModuleGetGlobal_v2(CUdeviceptr* pointer, std::size_t* bytes, CUmod_st* module, const char* name) {
  const auto found = module->globals.find(name);
  if (found == module->globals.end()) return kNotFound;
  if (pointer) *pointer = reinterpret_cast<CUdeviceptr>(found->second.first);
  if (bytes) *bytes = found->second.second;
  return kSuccess;
}
CUresult cuModuleGetFunction(CUfunc_st** function, CUmod_st*, const char* name) {
  const kreplay_fake::FakeKernel* kernel = kreplay_fake::findKernel(name);
  if (!kernel) return kNotFound;
  std::lock_guard<std::mutex> lock(functionsMutex);
  const auto made = functions.try_emplace(name).first;
  CUfunc_st& entry = made->second;
  entry.kernel = kernel;
  entry.name = made->first.c_str();
  *function = &entry;
  return kSuccess;
}
CUresult cuFuncSetAttribute(CUfunc_st*, int, int) {
  return kSuccess;
}
CUresult cuFuncGetAttribute(int* value, int attribute, CUfunc_st*) {
  // CU_FUNC_ATTRIBUTE_NUM_REGS: the fake compiles nothing, and says every function uses 24 registers
  // per thread (a count no fixture's cubin holds, so a test sees whose count it got).
  constexpr int numRegs = 4;
  constexpr int fakeRegistersPerThread = 24;
  if (attribute != numRegs) return kreplay_fake::kInvalidValue;
  *value = fakeRegistersPerThread;
  return kSuccess;
}
CUresult cuFuncGetName(const char** name, CUfunc_st* function) {
  *name = function->name;
  return kSuccess;
}
CUresult cuFuncGetModule(CUmod_st** module, CUfunc_st*) {
  static CUmod_st* const unknown = nullptr;  // the fake does not keep which module a function came from
  *module = unknown;
  return kNotFound;
}

}  // extern "C"
