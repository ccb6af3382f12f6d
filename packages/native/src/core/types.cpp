#include "core/types.hpp"

namespace kreplay {

const char* operationName(OperationKind kind) {
  switch (kind) {
    case OperationKind::Copy:
      return "copy";
    case OperationKind::Hash:
      return "hash";
    case OperationKind::ConditionalCopy:
      return "conditional-copy";
    case OperationKind::Kernel:
      return "kernel";
    case OperationKind::Allocate:
      return "allocate";
    case OperationKind::Any:
      return "any";
  }
  return "unknown";
}

}  // namespace kreplay
