// Files the C++ tests read: __fixtures__ of the hsa driver and the committed code objects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kreplay::hsa::test {

/** The bytes of src/drivers/hsa/__fixtures__/<name>. @throws std::runtime_error when unreadable. */
std::vector<std::uint8_t> readFixture(const std::string& name);

/** The bytes of a file. @throws std::runtime_error when unreadable. */
std::vector<std::uint8_t> readFile(const std::string& path);

}  // namespace kreplay::hsa::test
