#include "capture/json-text.hpp"

#include <cstdio>

namespace kreplay::capture {

namespace {
constexpr char kDigits[] = "0123456789abcdef";
}

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      out += escape;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string jsonAddress(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "\"0x%llx\"", static_cast<unsigned long long>(value));
  return text;
}

std::string jsonHexBytes(const std::uint8_t* data, std::size_t size) {
  std::string out = "\"";
  out.reserve(size * 2 + 2);
  for (std::size_t i = 0; i < size; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 15];
  }
  return out + "\"";
}

std::string jsonHash(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "\"%016llx\"", static_cast<unsigned long long>(value));
  return text;
}

std::string jsonStringList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i > 0 ? "," : "") + jsonString(items[i]);
  return out + "]";
}

}  // namespace kreplay::capture
