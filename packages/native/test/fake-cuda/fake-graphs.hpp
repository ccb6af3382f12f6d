// What the rest of the fake libcuda asks of its CUDA graphs: the calls that put work on a stream ask
// capture* first, and work on a capturing stream becomes a node of the capture's graph instead of
// running (fake-stream-capture.cpp); cuMemFree* leaves graph memory to its graph (fake-graph-objects.cpp).
// The graph calls themselves are by concept: fake-graph-building.cpp, fake-graph-queries.cpp,
// fake-graph-exec.cpp, fake-graph-node-setters.cpp and fake-graph-launch.cpp, over fake-graph-objects.hpp.
#pragma once

#include <cstddef>

#include "fake-cuda-results.hpp"
#include "fake-launches.hpp"

struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;

namespace kreplay_fake {

// Each returns false when `stream` is not capturing (the caller runs the work).
bool captureKernel(CUstream_st* stream, CUfunc_st* function, Dim3 grid, Dim3 block, unsigned sharedBytes,
                   ParameterValues values);
bool captureMemset(CUstream_st* stream, CUdeviceptr destination, unsigned value, unsigned elementBytes,
                   std::size_t count);
bool captureCopy(CUstream_st* stream, CUdeviceptr destination, CUdeviceptr source, std::size_t bytes);
bool captureAllocation(CUstream_st* stream, CUdeviceptr* pointer, std::size_t bytes, CUresult& result);
bool captureFree(CUstream_st* stream, CUdeviceptr pointer);
/** A graph launched on a capturing stream becomes a child graph node holding a clone of `graph`. */
bool captureGraphLaunch(CUstream_st* stream, const CUgraph_st& graph);
bool captureEventRecord(CUstream_st* stream, CUevent_st* event);
/** A wait on an event recorded during a capture joins `stream` to it; true when it did. */
bool captureEventWait(CUstream_st* stream, CUevent_st* event);
/** Whether `stream` is capturing: its synchronization then fails and invalidates the capture. */
bool invalidateCaptureOnSynchronize(CUstream_st* stream);
/** Whether the pointer was made by a graph memory node (freed with its graph, not by cuMemFree*). */
bool isGraphAllocation(CUdeviceptr pointer);

}  // namespace kreplay_fake
