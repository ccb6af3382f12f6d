#!/usr/bin/env bash
# Builds test/fake-cuda into build/fake-cuda/libcuda.so.1: a CPU stand-in for the NVIDIA driver
# library that runs the cuda driver's own kernels (compiled as C++), so the cuda driver's code can be
# tested on a machine without a GPU:
#   scripts/build-fake-cuda.sh && KREPLAY_CUDA_LIBRARY=$PWD/build/fake-cuda/libcuda.so.1 npx vitest run test/gpu
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out="$here/build/fake-cuda"
mkdir -p "$out"
"${CXX:-g++}" -std=c++17 -O2 -g -fPIC -shared -ffp-contract=off -Wall -Wno-unknown-pragmas -Wno-unused-function \
  -I "$here/src" -I "$here/test/fake-cuda" \
  "$here"/test/fake-cuda/*.cpp -o "$out/libcuda.so.1" -lpthread
echo "$out/libcuda.so.1"
