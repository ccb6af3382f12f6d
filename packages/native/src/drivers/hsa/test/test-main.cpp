// The hsa driver's C++ test program. Without arguments it runs every case and prints one line per
// case, "ok", "skip" or "not ok", a tab, its name, and for the last two a tab and why; then it exits
// 1 if one failed. With an argument it runs the cases whose name contains it.
//   kreplay-hsa-layout-test --dump-metadata gfx90a   the embedded code object's kernels, as JSON
#include <cstring>
#include <iostream>

#include "drivers/hsa/test/metadata-json.hpp"
#include "drivers/hsa/test/test-harness.hpp"

namespace kreplay::hsa::test {

std::vector<TestCase>& registry() {
  static std::vector<TestCase> cases;
  return cases;
}

}  // namespace kreplay::hsa::test

int main(int argc, char** argv) {
  using namespace kreplay::hsa::test;
  if (argc == 3 && std::strcmp(argv[1], "--dump-metadata") == 0)
    return dumpEmbeddedMetadata(argv[2], std::cout);
  const char* only = argc == 2 ? argv[1] : nullptr;
  int failed = 0;
  for (const auto& test : registry()) {
    if (only && test.name.find(only) == std::string::npos) continue;
    try {
      test.run();
      std::cout << "ok\t" << test.name << "\n";
    } catch (const Skip& skip) {
      std::cout << "skip\t" << test.name << "\t" << skip.what() << "\n";
    } catch (const std::exception& error) {
      failed += 1;
      std::string message = error.what();
      for (auto& character : message) character = character == '\n' || character == '\t' ? ' ' : character;
      std::cout << "not ok\t" << test.name << "\t" << message << "\n";
    }
    std::cout.flush();
  }
  return failed == 0 ? 0 : 1;
}
