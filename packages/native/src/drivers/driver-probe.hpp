// What a driver's availability probe found.
#pragma once

#include <string>

namespace kreplay {

struct DriverProbe {
  /** The runtime library (and device nodes) were found. */
  bool runtimeFound = false;
  /** What was found or missing, e.g. "libcuda.so.1 was not found". */
  std::string reason;
  /** How to fix it, e.g. "Install the NVIDIA driver or choose --driver host". */
  std::string fix;
};

}  // namespace kreplay
