// Finding the libraries of CUPTI (libcupti.so, libcheckpoint.so, libnvperf_host.so,
// libnvperf_target.so) at run time: they ship with the CUDA toolkit, not with the driver, so they are
// looked for in the folder KREPLAY_CUPTI_LIBRARY_DIR names (only there, when it is set), else in the
// toolkit's usual folders, then by plain name in the library path. Nothing of CUPTI is needed to
// build the addon.
#pragma once

#include <memory>
#include <string>

#include "core/dynamic-library.hpp"

namespace kreplay::cuda {

/** A CUPTI library opened, or why it could not be. */
struct CuptiLibraryLookup {
  std::unique_ptr<DynamicLibrary> library;
  /** Where it was found (a path or the plain name), or empty. */
  std::string path;
  /** When not found: "libcheckpoint.so was not found (looked in ...)". */
  std::string failure;
};

/**
 * Opens the first of `names` (e.g. "libcupti.so", "libcupti.so.13") found in $KREPLAY_CUPTI_LIBRARY_DIR
 * when set, else in /usr/local/cuda/extras/CUPTI/lib64, /usr/local/cuda/lib64, then the library path. Opened
 * with RTLD_GLOBAL so that a library opened later (libcheckpoint.so needs libcupti.so) finds it.
 */
CuptiLibraryLookup openCuptiLibrary(std::initializer_list<const char*> names);

/** What to do when a CUPTI library is missing (one sentence, no final period). */
const char* cuptiInstallFix();

}  // namespace kreplay::cuda
