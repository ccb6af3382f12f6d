#include "capture/test/random-graph-plan.hpp"

#include <algorithm>
#include <cstring>
#include <set>

#include "core/page-hash.hpp"

namespace kreplay::capture::test {

namespace {

constexpr std::size_t kUnitBytes = 16;  // ranges start and end on 16 bytes: memsets of 1, 2 and 4 fit
constexpr std::size_t kBufferUnits = kRandomGraphBufferBytes / kUnitBytes;

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  /** A number in [0, count). */
  std::size_t below(std::size_t count) { return static_cast<std::size_t>(engine_() % count); }

 private:
  std::mt19937_64 engine_;
};

/** What a node reads and writes: [begin, end) byte ranges of the arena. */
struct Access {
  std::size_t begin, end;
  bool writes;
};

std::vector<Access> accessesOf(const RandomNode& node) {
  if (node.kind == RandomNodeKind::Copy)
    return {{node.source, node.source + node.bytes, false},
            {node.destination, node.destination + node.bytes, true}};
  return {{node.destination, node.destination + node.bytes, true}};
}

bool conflicts(const RandomNode& first, const RandomNode& second) {
  for (const Access& one : accessesOf(first))
    for (const Access& other : accessesOf(second))
      if ((one.writes || other.writes) && one.begin < other.end && other.begin < one.end) return true;
  return false;
}

float randomFloat(Random& random) {
  return static_cast<float>(random.below(193)) * 0.125f - 12.0f;
}

std::vector<unsigned char> randomFloats(Random& random, std::size_t bytes) {
  std::vector<unsigned char> data(bytes);
  for (std::size_t at = 0; at < bytes; at += 4) {
    const float value = randomFloat(random);
    std::memcpy(&data[at], &value, 4);
  }
  return data;
}

/** A memset value of `elementBytes` bytes whose floats stay small. */
unsigned memsetValue(Random& random, unsigned elementBytes) {
  static const unsigned bytePatterns[] = {0x3f, 0x40, 0x00, 0xbe},
                        halfPatterns[] = {0x3f80, 0x4000, 0xbf80, 0};
  if (elementBytes == 1) return bytePatterns[random.below(4)];
  if (elementBytes == 2) return halfPatterns[random.below(4)];
  const float value = static_cast<float>(random.below(9)) * 0.5f - 2.0f;
  unsigned bits = 0;
  std::memcpy(&bits, &value, 4);
  return bits;
}

RandomNode randomNode(Random& random, RandomNodeKind kind, const std::vector<std::size_t>& buffers) {
  RandomNode node;
  node.kind = kind;
  const std::size_t buffer = buffers[random.below(buffers.size())];
  const std::size_t start = random.below(kBufferUnits);
  std::size_t units = 1 + random.below(kBufferUnits - start);
  node.destination = buffer * kRandomGraphBufferBytes + start * kUnitBytes;
  if (kind == RandomNodeKind::Memset) {
    node.elementBytes = 1u << random.below(3);
    node.value = memsetValue(random, node.elementBytes);
  } else if (kind == RandomNodeKind::Copy) {
    std::size_t source = buffers[random.below(buffers.size())];
    if (source == buffer) source = (buffer + 1) % kRandomGraphBuffers;  // another buffer: no overlap
    const std::size_t sourceStart = random.below(kBufferUnits);
    units = std::min(units, kBufferUnits - sourceStart);
    node.source = source * kRandomGraphBufferBytes + sourceStart * kUnitBytes;
  }
  node.bytes = units * kUnitBytes;
  return node;
}

RandomGraph randomGraph(Random& random, bool captured) {
  RandomGraph graph;
  graph.captured = captured;
  graph.streams = captured ? 1 + random.below(3) : 1;
  // Three of the buffers, so that the nodes overlap often.
  std::vector<std::size_t> buffers;
  while (buffers.size() < 3) {
    const std::size_t buffer = random.below(kRandomGraphBuffers);
    if (std::find(buffers.begin(), buffers.end(), buffer) == buffers.end()) buffers.push_back(buffer);
  }
  std::vector<RandomNodeKind> kinds(3 + random.below(6));
  for (RandomNodeKind& kind : kinds) {
    const std::size_t draw = random.below(10);
    kind = draw < 4 ? RandomNodeKind::Kernel : draw < 7 ? RandomNodeKind::Memset : RandomNodeKind::Copy;
  }
  if (std::find(kinds.begin(), kinds.end(), RandomNodeKind::Kernel) == kinds.end())
    kinds[random.below(kinds.size())] = RandomNodeKind::Kernel;
  for (const RandomNodeKind kind : kinds) {
    RandomNode node = randomNode(random, kind, buffers);
    node.stream = random.below(graph.streams);
    for (std::size_t earlier = 0; earlier < graph.nodes.size(); ++earlier)
      if (conflicts(graph.nodes[earlier], node) || random.below(5) == 0) node.dependencies.push_back(earlier);
    graph.nodes.push_back(std::move(node));
  }
  std::vector<RandomNode> current = graph.nodes;  // as the executable graph holds them
  graph.launches.resize(2 + random.below(2));
  for (std::size_t index = 1; index < graph.launches.size(); ++index) {
    RandomLaunch& launch = graph.launches[index];
    for (std::size_t count = 1 + random.below(2); count > 0; --count) {
      const std::size_t start = random.below(kRandomGraphArenaBytes / kUnitBytes);
      const std::size_t units =
          1 + random.below(std::min<std::size_t>(512, kRandomGraphArenaBytes / kUnitBytes - start));
      launch.uploads.push_back({start * kUnitBytes, randomFloats(random, units * kUnitBytes)});
    }
    if (!captured && random.below(2) == 0) {
      launch.updates = true;
      for (RandomNode& node : current)
        if (node.kind == RandomNodeKind::Memset) node.value = memsetValue(random, node.elementBytes);
      launch.updatedNodes = current;
    }
    if (!captured && random.below(2) == 0) {
      const std::size_t set = random.below(current.size());
      RandomNode& node = current[set];
      if (node.kind == RandomNodeKind::Memset) node.value = memsetValue(random, node.elementBytes);
      if (node.kind == RandomNodeKind::Copy)
        node.bytes = kUnitBytes * (1 + random.below(node.bytes / kUnitBytes));
      if (node.kind != RandomNodeKind::Kernel) launch.nodeSets.emplace_back(set, node);
    }
    const std::size_t node = random.below(current.size());
    // Smaller only: the node's range shrinks, so that the edges still order every overlap.
    if (!captured && random.below(2) == 0 && current[node].kind == RandomNodeKind::Kernel) {
      launch.shrinks = true;
      launch.shrunkNode = node;
      launch.shrunkBytes = kUnitBytes * (1 + random.below(current[node].bytes / kUnitBytes));
      current[node].bytes = launch.shrunkBytes;
    }
  }
  return graph;
}

}  // namespace

RandomGraphPlan randomGraphPlan(std::uint64_t seed) {
  Random random(seed);
  RandomGraphPlan plan;
  plan.initial = randomFloats(random, kRandomGraphArenaBytes);
  for (std::size_t index = 0; index < 3; ++index)
    plan.graphs.push_back(randomGraph(random, (index + seed) % 2 == 1));
  return plan;
}

std::vector<std::vector<std::size_t>> graphEdges(const RandomGraph& graph) {
  std::vector<std::vector<std::size_t>> edges;
  for (std::size_t index = 0; index < graph.nodes.size(); ++index) {
    std::set<std::size_t> from(graph.nodes[index].dependencies.begin(),
                               graph.nodes[index].dependencies.end());
    if (graph.captured)
      for (std::size_t earlier = index; earlier-- > 0;)
        if (graph.nodes[earlier].stream == graph.nodes[index].stream) {
          from.insert(earlier);
          break;
        }
    edges.emplace_back(from.begin(), from.end());
  }
  return edges;
}

std::vector<std::size_t> kahnOrder(const std::vector<std::vector<std::size_t>>& edges) {
  std::vector<std::size_t> waiting(edges.size());
  std::vector<std::vector<std::size_t>> dependents(edges.size());
  std::set<std::size_t> ready;
  for (std::size_t index = 0; index < edges.size(); ++index) {
    waiting[index] = edges[index].size();
    for (const std::size_t from : edges[index]) dependents[from].push_back(index);
    if (waiting[index] == 0) ready.insert(index);
  }
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

std::vector<std::uint64_t> arenaPageHashes(const std::vector<unsigned char>& arena) {
  std::vector<std::uint64_t> hashes;
  for (std::size_t at = 0; at < arena.size(); at += kRandomGraphPageBytes)
    hashes.push_back(pageHash(arena.data() + at, std::min(kRandomGraphPageBytes, arena.size() - at)));
  return hashes;
}

std::vector<ReferenceKernel> runOnHost(const std::vector<RandomNode>& nodes,
                                       const std::vector<std::vector<std::size_t>>& edges,
                                       std::vector<unsigned char>& arena) {
  std::vector<ReferenceKernel> kernels;
  const std::vector<std::size_t> order = kahnOrder(edges);
  for (std::size_t position = 0; position < order.size(); ++position) {
    const RandomNode& node = nodes[order[position]];
    unsigned char* destination = arena.data() + node.destination;
    if (node.kind == RandomNodeKind::Kernel) {
      ReferenceKernel kernel{order[position], position, arenaPageHashes(arena), {}};
      for (std::size_t at = 0; at < node.bytes; at += 4) {
        float value = 0;
        std::memcpy(&value, destination + at, 4);
        const float product = value * 2.0f;  // __fmul_rn then __fadd_rn, as the fake runs `scale`
        value = product + 1.0f;
        std::memcpy(destination + at, &value, 4);
      }
      kernel.after = arenaPageHashes(arena);
      kernels.push_back(std::move(kernel));
    } else if (node.kind == RandomNodeKind::Memset) {
      for (std::size_t at = 0; at < node.bytes; at += node.elementBytes)
        std::memcpy(destination + at, &node.value, node.elementBytes);  // little-endian
    } else {
      std::memmove(destination, arena.data() + node.source, node.bytes);
    }
  }
  return kernels;
}

}  // namespace kreplay::capture::test
