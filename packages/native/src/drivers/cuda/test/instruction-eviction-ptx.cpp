// Prints instructionEvictionPtx(argv[1]) for cuda-instruction-eviction-ptx.test.ts.
#include <cstdio>
#include <cstdlib>

#include "drivers/cuda/cuda-instruction-eviction-ptx.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string ptx = kreplay::cuda::instructionEvictionPtx(std::strtoull(argv[1], nullptr, 10));
  std::fwrite(ptx.data(), 1, ptx.size(), stdout);
  return 0;
}
