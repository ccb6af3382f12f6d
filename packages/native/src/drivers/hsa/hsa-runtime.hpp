// The ROCm runtime library (libhsa-runtime64.so.1), loaded with dlopen once per process, and the
// entry points the driver calls. It is never unloaded: ROCr keeps threads and static state that do
// not survive a dlclose.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "drivers/hsa/hsa-api.hpp"

namespace kreplay::hsa {

class HsaRuntime {
 public:
  /**
   * The runtime, loaded on the first call: the file KREPLAY_HSA_LIBRARY names when it is set (e.g.
   * the tests' fake ROCr), else libhsa-runtime64.so.1 from the library path, $ROCM_PATH/lib or
   * /opt/rocm/lib. Null when nothing loads; `error` then says what was tried.
   */
  static const HsaRuntime* load(std::string& error);
  /** The value of KREPLAY_HSA_LIBRARY, empty when it is not set. */
  static std::string customLibrary();
  /** A runtime over entry points resolved elsewhere (the tests' fake ROCr); none may be null. */
  static std::unique_ptr<HsaRuntime> fromEntryPoints(const EntryPoints& api, std::string path);

  const EntryPoints& api() const { return api_; }
  /** The file that was loaded (the first candidate that dlopen accepted). */
  const std::string& path() const { return path_; }
  /** Entry points the library does not export (an old or partial ROCm); empty when usable. */
  const std::vector<std::string>& missing() const { return missing_; }
  /** e.g. "HSA_STATUS_ERROR_OUT_OF_RESOURCES (the runtime's own description)". */
  std::string describe(hsa_status_t status) const;

 private:
  EntryPoints api_{};
  std::string path_;
  std::vector<std::string> missing_;
};

/** The name of an HSA status code (core and ROCr codes), or its value in hex. */
std::string statusName(hsa_status_t status);

/** A failed HSA call: `code` is the status name. */
class HsaError : public std::runtime_error {
 public:
  HsaError(std::string code, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

/** Throws HsaError naming `what` unless `status` is HSA_STATUS_SUCCESS (or HSA_STATUS_INFO_BREAK). */
void check(const HsaRuntime& runtime, hsa_status_t status, const char* what);

}  // namespace kreplay::hsa
