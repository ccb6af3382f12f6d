// The code objects embedded in the addon are exactly the committed files.
#include "drivers/hsa/embedded-code-objects.hpp"
#include "drivers/hsa/test/test-fixtures.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::hsa;

TEST("embedding: each embedded code object equals src/kernels-amdgpu/<processor>.hsaco") {
  CHECK_EQ(embeddedCodeObjects().size(), 3u);
  for (const auto& object : embeddedCodeObjects()) {
    const auto file =
        kreplay::hsa::test::readFile(std::string(KREPLAY_AMDGPU_DIR) + "/" + object.processor + ".hsaco");
    CHECK_EQ(object.size, file.size());
    CHECK(std::equal(file.begin(), file.end(), object.bytes));
  }
}
