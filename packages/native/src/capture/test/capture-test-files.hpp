// Files of the capture tests: a fresh folder to capture into, a whole file's text.
#pragma once

#include <stdlib.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace kreplay::capture::test {

/** `<a new folder under /tmp>/capture`, which does not exist yet. */
inline std::string temporaryFolder() {
  char pattern[] = "/tmp/kreplay-capture-test-XXXXXX";
  const char* made = ::mkdtemp(pattern);
  if (made == nullptr) throw std::runtime_error("mkdtemp failed");
  return std::string(made) + "/capture";
}

/** The file's bytes; empty when it cannot be read. */
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace kreplay::capture::test
