#include "drivers/hsa/test/metadata-json.hpp"

#include <string>

#include "drivers/hsa/code-object-metadata.hpp"
#include "drivers/hsa/embedded-code-objects.hpp"

namespace kreplay::hsa::test {

namespace {

std::string quoted(const std::string& text) {
  std::string result = "\"";
  for (const char character : text) {
    if (character == '"' || character == '\\') result += '\\';
    result += character;
  }
  return result + "\"";
}

}  // namespace

int dumpEmbeddedMetadata(const char* processor, std::ostream& out) {
  for (const auto& object : embeddedCodeObjects()) {
    if (std::string(object.processor) != processor) continue;
    const CodeObjectMetadata metadata = readCodeObjectMetadata(object.bytes, object.size);
    out << "{\"processor\":" << quoted(metadata.processor) << ",\"target\":" << quoted(metadata.target)
        << ",\"codeObjectVersion\":" << metadata.codeObjectVersion << ",\"kernels\":[";
    for (std::size_t k = 0; k < metadata.kernels.size(); ++k) {
      const auto& kernel = metadata.kernels[k];
      out << (k ? "," : "") << "{\"name\":" << quoted(kernel.name) << ",\"symbol\":" << quoted(kernel.symbol)
          << ",\"kernargSegmentSize\":" << kernel.kernargSegmentSize
          << ",\"kernargSegmentAlign\":" << kernel.kernargSegmentAlign
          << ",\"groupSegmentFixedSize\":" << kernel.groupSegmentFixedSize
          << ",\"privateSegmentFixedSize\":" << kernel.privateSegmentFixedSize << ",\"arguments\":[";
      for (std::size_t a = 0; a < kernel.arguments.size(); ++a) {
        const auto& argument = kernel.arguments[a];
        out << (a ? "," : "") << "{\"name\":" << quoted(argument.name)
            << ",\"typeName\":" << quoted(argument.typeName) << ",\"offset\":" << argument.offset
            << ",\"size\":" << argument.size << ",\"valueKind\":" << quoted(argument.valueKind)
            << ",\"isConst\":" << (argument.isConst ? "true" : "false") << "}";
      }
      out << "]}";
    }
    out << "]}\n";
    return 0;
  }
  out << "no embedded code object for " << processor << "\n";
  return 1;
}

}  // namespace kreplay::hsa::test
