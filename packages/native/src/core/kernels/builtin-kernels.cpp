#include "core/kernels/builtin-kernels.hpp"

#include "core/types.hpp"

namespace kreplay {

std::size_t builtinKernelArgumentCount(int kernel) {
  switch (static_cast<BuiltinKernel>(kernel)) {
    case BuiltinKernel::Fill:
      return 3;
    case BuiltinKernel::ScatterWrite:
      return 7;
    case BuiltinKernel::Triad:
      return 5;
    case BuiltinKernel::Stencil:
      return 2;
    case BuiltinKernel::Accumulate:
      return 3;
  }
  return 0;
}

void runBuiltinKernel(ThreadPool& pool, BuiltinKernel kernel, const std::vector<std::uint64_t>& a) {
  switch (kernel) {
    case BuiltinKernel::Fill:
      return fillKernel(pool, a[0], a[1], static_cast<std::uint32_t>(a[2]));
    case BuiltinKernel::ScatterWrite:
      return scatterWriteKernel(pool, a[0], a[1], a[2], doubleOf(a[3]), a[4], a[5], a[6]);
    case BuiltinKernel::Triad:
      return triadKernel(pool, a[0], a[1], a[2], floatOf(a[3]), a[4]);
    case BuiltinKernel::Stencil:
      return stencilKernel(pool, a[0], a[1]);
    case BuiltinKernel::Accumulate:
      return accumulateKernel(pool, a[0], a[1], a[2]);
  }
}

}  // namespace kreplay
