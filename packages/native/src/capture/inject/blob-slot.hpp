// The blob id of a page (or module image) the background writer is storing: handed out when the
// bytes are staged, filled in by a writer thread once it has hashed them with SHA-256, read when the
// record that names it is written (after that writer's work, in the writer's order).
#pragma once

#include <memory>
#include <string>

namespace kreplay::capture {

struct BlobSlot {
  std::string id;  ///< empty until a writer thread hashed the bytes
};
using BlobRef = std::shared_ptr<BlobSlot>;

}  // namespace kreplay::capture
