#include "core/kernels/builtin-kernel-memory.hpp"

namespace kreplay {

std::vector<PointerUse> builtinPointerUses(BuiltinKernel kernel, const std::vector<std::uint64_t>& a) {
  switch (kernel) {
    case BuiltinKernel::Fill:
      return {{0, a[1], false, true}};
    case BuiltinKernel::ScatterWrite:
      return {{0, a[1], true, true}, {5, a[6], true, false}};
    case BuiltinKernel::Triad:
      return {{0, 4 * a[4], false, true}, {1, 4 * a[4], true, false}, {2, 4 * a[4], true, false}};
    case BuiltinKernel::Stencil:
      return {{0, 4 * a[1], true, true}};
    case BuiltinKernel::Accumulate:
      return {{0, 4 * a[1], true, false}, {2, 4, false, true}};
  }
  return {};
}

}  // namespace kreplay
