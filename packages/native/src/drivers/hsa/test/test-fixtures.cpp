#include "drivers/hsa/test/test-fixtures.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace kreplay::hsa::test {

std::vector<std::uint8_t> readFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::vector<std::uint8_t> readFixture(const std::string& name) {
  return readFile(std::string(KREPLAY_HSA_FIXTURES) + "/" + name);
}

}  // namespace kreplay::hsa::test
