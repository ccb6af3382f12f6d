// Runs the capture library's CUPTI glue end to end on CUDA graphs, over fake-cupti for the callbacks
// and the fake libcuda (test/fake-cuda) for the driver:
//   kreplay-capture-test --drive-graph-injection <libkreplay-capture.so> <fake libcupti.so> <fake libcuda.so.1>
// with KREPLAY_CAPTURE_DIR, KREPLAY_CUPTI_LIBRARY_DIR and KREPLAY_CUDA_LIBRARY (the fake libcuda) set
// by the caller. A "program" loads the synthetic cubin (kernel `scale`, which the fake runs as
// data[i] = data[i] * 2 + 1), allocates two buffers, builds a graph node by node (a 4-byte memset of
// B, scale(A), then scale(B) after both) and launches it three times with scale(A)'s count changed in
// between by cuGraphExecKernelNodeSetParams (A and B in one mapping, cuMemMap, at a fixed address), then captures a graph from a stream (a memset of B,
// scale(A), scale(B)) and launches it three times; it raises the callbacks a driver would. Prints one
// JSON line: the buffers, the graphs and nodes, the counts each launch used, and whether the
// program's memory at the end is what it computed on the host (the capture changed nothing).
#pragma once

#include <ostream>

namespace kreplay::capture::test {

int driveGraphInjection(const char* captureLibrary, const char* fakeCupti, const char* fakeCuda, std::ostream& out);

}  // namespace kreplay::capture::test
