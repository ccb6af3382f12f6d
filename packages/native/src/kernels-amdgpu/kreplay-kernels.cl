// The one translation unit of every kreplay AMDGPU code object (see scripts/build-amdgpu-kernels.sh).
#include "page-hash.cl"
#include "conditional-copy.cl"
#include "fill.cl"
#include "scatter-write.cl"
#include "triad.cl"
#include "stencil.cl"
#include "accumulate.cl"
#include "marker.cl"
