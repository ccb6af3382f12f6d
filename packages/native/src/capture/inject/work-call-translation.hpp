// What the driver calls between launches mean to the capture session (each at API exit, when it
// succeeded): memsets and linear copies (recorded, their destination's ranges no longer current),
// host functions, event records and waits (the sequence rule), and writes the capture cannot bound
// (peer, 2D/3D and batch copies, 2D memsets, stream memory operations: every device range).
#pragma once

#include <vector>

#include "capture/inject/capture-session.hpp"
#include "capture/inject/cupti-callback-api.hpp"

namespace kreplay::capture {

/** The callback ids of the driver calls between launches, for the glue to enable. */
const std::vector<cupti::CallbackId>& workCallbackIds();

/** Tells the session about a successful call of workCallbackIds(); false for another id. */
bool applyWorkCall(CaptureSession& session, cupti::CallbackId id, const void* params);

}  // namespace kreplay::capture
