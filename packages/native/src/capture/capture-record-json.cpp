// The JSON text of a launch record (FORMAT.md, format version 2) and the names of what it holds.
#include <string>

#include "capture/capture-writer.hpp"
#include "capture/json-text.hpp"

namespace kreplay::capture {

namespace {

template <class T, class Show>
std::string jsonList(const T& items, Show show) {
  std::string out = "[";
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ",";
    first = false;
    out += show(item);
  }
  return out + "]";
}

std::string triple(const std::array<std::uint32_t, 3>& value) {
  return "[" + std::to_string(value[0]) + "," + std::to_string(value[1]) + "," + std::to_string(value[2]) +
         "]";
}

std::string number(std::uint64_t value) {
  return std::to_string(value);
}

std::string workJson(const RecordedWork& work) {
  const std::string kind = std::string("{\"kind\":\"") + workKindName(work.kind) + "\"";
  const std::string stream = ",\"stream\":" + jsonAddress(work.stream);
  switch (work.kind) {
    case WorkKind::Memset:
      return kind + stream + ",\"address\":" + jsonAddress(work.address) + ",\"bytes\":" + number(work.bytes) +
             ",\"value\":" + number(work.value) + ",\"elementBytes\":" + number(work.elementBytes) + "}";
    case WorkKind::Copy:
      return kind + stream + ",\"destination\":" + jsonAddress(work.address) +
             ",\"source\":" + jsonAddress(work.source) + ",\"bytes\":" + number(work.bytes) + "}";
    case WorkKind::Upload:
      return kind + stream + ",\"destination\":" + jsonAddress(work.address) + ",\"bytes\":" + number(work.bytes) +
             "}";
    case WorkKind::Download:
      return kind + stream + ",\"source\":" + jsonAddress(work.address) + ",\"bytes\":" + number(work.bytes) + "}";
    case WorkKind::Allocation:
      return kind + ",\"address\":" + jsonAddress(work.address) + ",\"bytes\":" + number(work.bytes) +
             ",\"memoryKind\":\"" + memoryKindName(work.memoryKind) + "\"}";
    case WorkKind::Free:
      return kind + ",\"address\":" + jsonAddress(work.address) + "}";
  }
  return kind + "}";
}

}  // namespace

const char* const kSequenceBreakReasons[] = {"other-stream",      "uncaptured-launch", "host-function",
                                             "cross-stream-wait", "unbounded-write",   "other-stream-work",
                                             "host-write",        "unrecorded-write",  "capture-stopped",
                                             "graph-launch"};
const std::size_t kSequenceBreakReasonCount = sizeof kSequenceBreakReasons / sizeof kSequenceBreakReasons[0];

const char* workKindName(WorkKind kind) {
  switch (kind) {
    case WorkKind::Memset:
      return "memset";
    case WorkKind::Copy:
      return "copy";
    case WorkKind::Upload:
      return "upload";
    case WorkKind::Download:
      return "download";
    case WorkKind::Allocation:
      return "allocation";
    case WorkKind::Free:
      return "free";
  }
  return "unknown";
}

std::uint64_t RecordedWork::writtenBytes() const {
  switch (kind) {
    case WorkKind::Memset:
    case WorkKind::Copy:
    case WorkKind::Upload:
    case WorkKind::Allocation:
      return bytes;
    case WorkKind::Download:
    case WorkKind::Free:
      return 0;
  }
  return 0;
}

namespace {

/** `,"graph":{...}` for a kernel node of a graph launch, else nothing (the field is optional). */
std::string graphJson(const std::optional<GraphNodePlace>& graph) {
  if (!graph) return "";
  return ",\"graph\":{\"graph\":" + jsonAddress(graph->graph) + ",\"node\":" + jsonAddress(graph->node) +
         ",\"nodeIndex\":" + number(graph->nodeIndex) + ",\"graphLaunch\":" + number(graph->graphLaunch) + "}";
}

}  // namespace

std::string launchRecordJson(const RecordFields& fields) {
  const std::string memory = jsonList(fields.memory, [](const RecordedRange& range) {
    return "{\"base\":" + jsonAddress(range.base) + ",\"bytes\":" + number(range.bytes) + ",\"kind\":\"" +
           memoryKindName(range.kind) + "\",\"label\":" + jsonString(range.label) +
           ",\"pagesBefore\":" + jsonList(range.pagesBefore, jsonString) +
           ",\"pageHashesBefore\":" + jsonList(range.hashesBefore, jsonHash) +
           ",\"pageHashesAfter\":" + jsonList(range.hashesAfter, jsonHash) + "}";
  });
  const LaunchShape& shape = fields.shape;
  const std::string attributes = jsonList(shape.attributes, [](const LaunchAttribute& attribute) {
    return "{\"name\":" + jsonString(attribute.name) + ",\"values\":" +
           jsonList(attribute.values, [](std::int64_t value) { return std::to_string(value); }) + "}";
  });
  const std::string slots = jsonList(fields.parameters, [](const ParameterSlot& slot) {
    return "{\"index\":" + number(slot.index) + ",\"offset\":" + number(slot.offset) +
           ",\"size\":" + number(slot.size) + "}";
  });
  const SequencePlace& place = fields.place;
  const bool follows = place.follows.has_value();
  return "{\"formatVersion\":" + std::to_string(kCaptureFormatVersion) + ",\"sequence\":" + number(fields.sequence) +
         ",\"function\":" + jsonString(fields.function) + ",\"module\":" + jsonString(fields.moduleBlob) +
         ",\"shape\":{\"grid\":" + triple(shape.grid) + ",\"block\":" + triple(shape.block) +
         ",\"dynamicSharedBytes\":" + number(shape.dynamicSharedBytes) +
         ",\"clusterDims\":" + (shape.clusterDims ? triple(*shape.clusterDims) : std::string("null")) +
         ",\"attributes\":" + attributes + "},\"parameters\":{\"size\":" + number(fields.parameterBuffer.size()) +
         ",\"buffer\":" + jsonHexBytes(fields.parameterBuffer.data(), fields.parameterBuffer.size()) +
         ",\"slots\":" + slots + "},\"pageBytes\":" + number(fields.pageBytes) +
         ",\"stream\":" + jsonAddress(place.stream) + ",\"context\":" + jsonAddress(place.context) +
         ",\"follows\":" + (follows ? number(*place.follows) : std::string("null")) +
         ",\"sequenceBreak\":" + (follows ? std::string("null") : jsonString(place.sequenceBreak)) +
         ",\"workBefore\":" + jsonList(place.workBefore, workJson) + graphJson(fields.graph) +
         ",\"memory\":" + memory + "}\n";
}

}  // namespace kreplay::capture
