// The CUresult codes the fake libcuda returns (cuda.h's values), and the handle types its calls share.
#pragma once

namespace kreplay_fake {

using CUresult = int;
using CUdeviceptr = unsigned long long;

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kOutOfMemory = 2;
constexpr CUresult kInvalidImage = 200;
constexpr CUresult kUnsupportedPtxVersion = 222;
constexpr CUresult kNotFound = 500;
constexpr CUresult kLaunchOutOfResources = 701;  // also: a parameter buffer longer than the kernel's parameters
constexpr CUresult kNotSupported = 801;
constexpr CUresult kNotReady = 600;
constexpr CUresult kStreamCaptureUnsupported = 900;
constexpr CUresult kStreamCaptureInvalidated = 901;
constexpr CUresult kStreamCaptureWrongThread = 908;  // ending a capture on a stream that did not begin it
constexpr CUresult kGraphExecUpdateFailure = 910;
constexpr CUresult kInvalidClusterSize = 912;

}  // namespace kreplay_fake
