#!/usr/bin/env bash
# Per-kernel cost of CUPTI counters on one NVIDIA GPU, in one run: Nsight Compute's kernel replay,
# kreplay one dispatch at a time (K = 1), and kreplay range replay at K = 10, 100, 1000 dispatches per
# range, on the same kernel (the scatter workload; ncu runs native/test/gpu/ncu-reference, the same
# launches as a plain CUDA program). Run on the GPU machine from the repository root, with Node.js on
# PATH and the CLI bundle (pnpm --filter @kreplay/cli bundle --out .device) in BUNDLE:
#   BUNDLE=.device OUT=out packages/bench/scripts/profile-range-vs-ncu.sh
# Environment: KERNELS (ncu's and kreplay's kernel count, default 100), SMALL (ncu's second, smaller
# kernel count, default 10: ncu's cost per kernel is the difference of the two), FOOTPRINT_GIB (default 1),
# RANGES (default "1 10 100 1000"), CACHE_CONTROLS (default "all none").
# Writes into OUT: ncu-<cache>.txt, kreplay-at-a-time.json, kreplay-range-<K>-<cache>.json, and
# summary.txt (the table; summarize-profile-range.mjs makes it from the files).
set -euo pipefail
bundle=${BUNDLE:-.device}
out=${OUT:?set OUT to the output folder}
kernels=${KERNELS:-100}
small=${SMALL:-10}
gib=${FOOTPRINT_GIB:-1}
ranges=${RANGES:-10 100 1000}
caches=${CACHE_CONTROLS:-all none}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$here/speed-of-light-metrics.sh"
root=$(cd "$here/../../.." && pwd)
mkdir -p "$out"
kreplay() { node "$bundle/kreplay.mjs" "$@"; }
seconds() { date +%s.%N; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/machine.txt"
ncu --version | tail -1 >> "$out/machine.txt"
nvcc -O2 -o /tmp/scatter-reference "$root/packages/native/test/gpu/ncu-reference/scatter-reference.cpp" -lcuda
ptx="$root/packages/native/src/kernels-cuda/ptx/kreplay-kernels.compute_90.ptx"

# The program alone, then under ncu: ncu's cost per kernel is the difference over the kernels.
start=$(seconds); /tmp/scatter-reference "$ptx" "$kernels" "$gib" > "$out/program.txt"; end=$(seconds)
echo "program $(awk "BEGIN { print $end - $start }") $kernels" > "$out/timings.txt"
for cache in $caches; do
  for count in "$small" "$kernels"; do
    suffix=$([ "$count" = "$kernels" ] && echo "" || echo "-small")
    start=$(seconds)
    ncu --clock-control none --cache-control "$cache" --csv --page raw --metrics "$metrics" \
      /tmp/scatter-reference "$ptx" "$count" "$gib" > "$out/ncu-$cache$suffix.csv" 2> "$out/ncu-$cache$suffix.log"
    end=$(seconds)
    echo "ncu-$cache$suffix $(awk "BEGIN { print $end - $start }") $count" >> "$out/timings.txt"
  done
done

footprint="${gib}GiB"
kreplay profile scatter --metrics "$metrics" --footprint "$footprint" --dispatches "$kernels" --json > "$out/kreplay-at-a-time.json"
for cache in $caches; do
  for k in $ranges; do
    n=$(( k > kernels ? k : kernels ))
    kreplay profile scatter --metrics "$metrics" --footprint "$footprint" --dispatches "$n" --range "$k" \
      --cache-control "$cache" --json > "$out/kreplay-range-$k-$cache.json"
  done
done
node "$here/summarize-profile-range.mjs" "$out" | tee "$out/summary.txt"
# One file for machines that bring back only a few.
tar -C "$out" -czf "$out.tar.gz" .
