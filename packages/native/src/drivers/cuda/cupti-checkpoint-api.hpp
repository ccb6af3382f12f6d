// The CUPTI Checkpoint API (cupti_checkpoint.h, in libcheckpoint.so), declared here: it saves every
// allocation of a context (to device memory first, then host) and restores them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "drivers/cuda/cuda-api.hpp"
#include "drivers/cuda/cupti-library.hpp"
#include "drivers/cuda/cupti-result.hpp"

namespace kreplay::cuda {

/** CUpti_Checkpoint: its configuration is read by the first save and ignored afterwards. */
struct CuptiCheckpoint {
  std::size_t structSize;       // CUpti_Checkpoint_STRUCT_SIZE: up to and including pPriv
  CUcontext ctx;                // the context to save (current one if null)
  std::size_t reserveDeviceMB;  // leave this much device memory free (-1: use no device memory)
  std::size_t reserveHostMB;    // leave this much host memory free (-1: use no host memory)
  std::uint8_t allowOverwrite;  // a later save replaces the checkpoint
  std::uint8_t optimizations;   // CUpti_CheckpointOptimizations (0: none)
  void* pPriv;                  // null
};
static_assert(sizeof(CuptiCheckpoint) == 48, "CUpti_Checkpoint is 48 bytes on x86-64");

constexpr std::uint8_t CUPTI_CHECKPOINT_OPT_NONE = 0;
constexpr std::uint8_t CUPTI_CHECKPOINT_OPT_TRANSFER = 1;

struct CuptiCheckpointApi {
  CUptiResult (*cuptiCheckpointSave)(CuptiCheckpoint* handle);
  CUptiResult (*cuptiCheckpointRestore)(CuptiCheckpoint* handle);
  CUptiResult (*cuptiCheckpointFree)(CuptiCheckpoint* handle);
};

/** libcheckpoint.so (and the libcupti.so it needs) opened, with its entry points. */
struct CuptiCheckpointLibrary {
  std::unique_ptr<DynamicLibrary> cupti;  // may be null: libcheckpoint.so may find it itself
  std::unique_ptr<DynamicLibrary> checkpoint;
  std::string path;
  CuptiCheckpointApi api{};
};

/** The library, or why it is not available ("libcheckpoint.so was not found (...)"). */
struct CuptiCheckpointLoad {
  std::shared_ptr<const CuptiCheckpointLibrary> library;
  std::string failure;
};

/** Loads libcheckpoint.so once for the process (see cupti-library.hpp for where it looks). */
const CuptiCheckpointLoad& loadCuptiCheckpoint();

}  // namespace kreplay::cuda
