#!/usr/bin/env bash
# Compiles the cuda driver's built-in kernels (src/kernels-cuda/module.cu) to PTX, one file per
# virtual architecture, into src/kernels-cuda/ptx/. The PTX is committed: CMakeLists.txt embeds it
# in the addon, so building the addon needs no CUDA toolkit; the driver JIT-compiles the newest PTX
# the device supports when a runtime opens. Run it after changing a .cu file:
#   scripts/build-cuda-ptx.sh            (uses nvcc from PATH, else /usr/local/cuda/bin/nvcc)
# -fmad=false keeps every float multiply and add separately rounded, as the host driver computes.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[[ -x "$nvcc" ]] || { echo "[native] [build] nvcc was not found. Install the CUDA toolkit or set NVCC." >&2; exit 1; }
out="$here/src/kernels-cuda/ptx"
mkdir -p "$out"
# compute_75 runs on every GPU this CUDA supports (Turing and newer); compute_90 lets Hopper and
# newer JIT from their own instruction set.
for arch in 75 90; do
  "$nvcc" -ptx -arch="compute_$arch" -std=c++17 -O3 -fmad=false -prec-div=true -ftz=false \
    -I "$here/src" "$here/src/kernels-cuda/module.cu" -o "$out/kreplay-kernels.compute_$arch.ptx"
done
# The user-kernel test's module (test/gpu/), for any GPU this CUDA supports.
"$nvcc" -ptx -arch=compute_75 -std=c++17 -O3 -fmad=false \
  "$here/test/gpu/kernels/scale-floats.cu" -o "$here/test/gpu/kernels/scale-floats.ptx"
# The capture fixture (test/capture-fixtures/), for compute capability 9.0 and newer: its test
# launches it in clusters too.
"$nvcc" -ptx -arch=compute_90 -std=c++17 -O3 -fmad=false \
  "$here/test/capture-fixtures/axpy.cu" -o "$here/test/gpu/kernels/capture-fixture-axpy.ptx"
# The capture fixture that writes mapped pinned host memory, for any GPU this CUDA supports.
"$nvcc" -ptx -arch=compute_75 -std=c++17 -O3 -fmad=false \
  "$here/test/capture-fixtures/block-sums.cu" -o "$here/test/gpu/kernels/capture-fixture-block-sums.ptx"
ls -l "$out" "$here/test/gpu/kernels"
