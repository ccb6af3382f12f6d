// The metadata of an embedded code object as JSON, for hsa-layout.test.ts to compare the kernels'
// arguments with the built-in kernel descriptors of builtin-kernels.ts.
#pragma once

#include <ostream>

namespace kreplay::hsa::test {

/** Prints the metadata of the embedded code object for `processor`; returns the exit status. */
int dumpEmbeddedMetadata(const char* processor, std::ostream& out);

}  // namespace kreplay::hsa::test
