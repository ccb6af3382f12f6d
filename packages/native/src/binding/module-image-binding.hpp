// readModuleImage(bytes): the capture subsystem's module-image reader, for TypeScript.
#pragma once

#include <napi.h>

namespace kreplay::binding {

/**
 * Describes a cubin or fatbin held in a Uint8Array: `{ fatbin, entries: [{ kind, architecture,
 * compression, offset, bytes, cubin }] }`, offsets and sizes as numbers. A malformed image throws an
 * Error whose message is the reader's. Synchronous: it only walks headers already in memory.
 */
Napi::Value readModuleImage(const Napi::CallbackInfo& info);

}  // namespace kreplay::binding
