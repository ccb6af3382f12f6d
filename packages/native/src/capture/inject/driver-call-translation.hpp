// What a driver call seen by CUPTI means to the capture session: a launch's request from its
// `*_params` struct (shape, cuLaunchKernelEx attributes, cooperative, graph), and the session call an
// allocation, free or texture/surface object call makes (at API exit, when it succeeded). Plain
// functions over the declarations of cupti-callback-api.hpp, so the tests drive them without CUPTI.
#pragma once

#include "capture/inject/capture-session.hpp"
#include "capture/inject/cupti-callback-api.hpp"

namespace kreplay::capture {

/** Whether the callback id is a launch (kernel, cooperative, multi-device or graph). */
bool isLaunch(cupti::CallbackId id);

/** The launch a launch call's params describe; `symbolName` is CUPTI's name of the function. */
LaunchRequest launchRequest(cupti::CallbackId id, const void* params, const char* symbolName);

/** Tells the session about a successful allocation, free, mapping, texture/surface object or stream capture
 * call, or a call between launches (work-call-translation.hpp). */
void applyMemoryCall(CaptureSession& session, cupti::CallbackId id, const void* params);

/** Whether the call loads a module (cuModuleLoad*), and the handle it returned (at API exit). */
bool isModuleLoad(cupti::CallbackId id);
std::uintptr_t loadedModuleHandle(const void* params);
/** The module image a call loads from memory (cuModuleLoadData/Ex/FatBinary, cuLibraryLoadData), else null. */
const void* loadedModuleImage(cupti::CallbackId id, const void* params);

/** Whether the call ends a stream capture (applied whatever it returned: the capture is over either way). */
bool isStreamCaptureEnd(cupti::CallbackId id);

}  // namespace kreplay::capture
