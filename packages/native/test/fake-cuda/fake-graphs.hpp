// CUDA graphs in the fake libcuda: graphs built node by node or by stream capture, executable
// graphs that run their nodes in one topological order on a stream (as the fake runs launches),
// their exec updates, and the cuda.h structures those calls take (fake-graphs.cpp). The calls that
// put work on a stream ask capture* first: work on a capturing stream becomes a node instead of running.
#pragma once

#include <cstddef>

#include "fake-cuda-results.hpp"
#include "fake-launches.hpp"

struct CUstream_st;
struct CUevent_st;

namespace kreplay_fake {

// fake-graphs.cpp: each returns false when `stream` is not capturing (the caller runs the work).
bool captureKernel(CUstream_st* stream, CUfunc_st* function, Dim3 grid, Dim3 block, unsigned sharedBytes,
                   ParameterValues values);
bool captureMemset(CUstream_st* stream, CUdeviceptr destination, unsigned value, unsigned elementBytes,
                   std::size_t count);
bool captureCopy(CUstream_st* stream, CUdeviceptr destination, CUdeviceptr source, std::size_t bytes);
bool captureAllocation(CUstream_st* stream, CUdeviceptr* pointer, std::size_t bytes, CUresult& result);
bool captureFree(CUstream_st* stream, CUdeviceptr pointer);
bool captureEventRecord(CUstream_st* stream, CUevent_st* event);
/** A wait on an event recorded during a capture joins `stream` to it; true when it did. */
bool captureEventWait(CUstream_st* stream, CUevent_st* event);
/** Whether `stream` is capturing: its synchronization then fails and invalidates the capture. */
bool invalidateCaptureOnSynchronize(CUstream_st* stream);
/** Whether the pointer was made by a graph memory node (freed with its graph, not by cuMemFree*). */
bool isGraphAllocation(CUdeviceptr pointer);

}  // namespace kreplay_fake
