// Scenarios of the graph injection driver (drive-graph-injection.cpp), each returning its part of the
// driver's JSON line:
// - driveGraphExecUpdate: a graph of one node scale(A, n) instantiated, updated by cuGraphExecUpdate
//   from another graph (n/2), then changed by cuGraphExecKernelNodeSetParams through the first
//   graph's node (n/4) and the update's (n/8), launched after each: { graph, node, updateGraph,
//   updateNode, counts }.
// - driveGraphExecSetters: memset(B, 3.0f), scale(A), then scale(B) after both; launched after
//   cuGraphExecMemsetNodeSetParams (5.0f), after cuGraphNodeSetEnabled disabled scale(A), and after
//   it is enabled again and cuGraphExecNodeSetParams halved its count: { graph, memsetNode, scaleA,
//   scaleB, value, count }.
// - driveGraphMemoryNodes (drive-graph-memory-nodes.cpp): graph memory D allocated, a host buffer
//   copied into D, D copied into B, scale(B), scale(D), D freed; launched, then launched again after
//   cuGraphExecMemcpyNodeSetParams made the second copy read A: { graph, d }.
#pragma once

#include <string>

#include "capture/test/graph-program.hpp"

namespace kreplay::capture::test {

std::string driveGraphExecUpdate(GraphProgram& program);
std::string driveGraphExecSetters(GraphProgram& program);
std::string driveGraphMemoryNodes(GraphProgram& program);

}  // namespace kreplay::capture::test
