#include "capture/inject/graph-launch.hpp"

#include <set>

namespace kreplay::capture {

std::vector<std::size_t> graphTopologicalOrder(const std::vector<GraphNode>& nodes) {
  std::vector<std::size_t> waiting(nodes.size(), 0);
  std::vector<std::vector<std::size_t>> dependents(nodes.size());
  for (std::size_t index = 0; index < nodes.size(); ++index) {
    waiting[index] = nodes[index].dependencies.size();
    for (const std::size_t dependency : nodes[index].dependencies) dependents.at(dependency).push_back(index);
  }
  std::set<std::size_t> ready;
  for (std::size_t index = 0; index < nodes.size(); ++index)
    if (waiting[index] == 0) ready.insert(index);
  std::vector<std::size_t> order;
  while (!ready.empty()) {
    const std::size_t index = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(index);
    for (const std::size_t dependent : dependents[index])
      if (--waiting[dependent] == 0) ready.insert(dependent);
  }
  return order;
}

}  // namespace kreplay::capture
