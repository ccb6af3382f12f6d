#!/usr/bin/env bash
# A footprint larger than the spare device memory, side by side with Nsight Compute in one run
# (issue 20): the scatter kernel over FOOTPRINT_GIB (default 96) GiB writing WRITE_FRACTION (default
# 0.01) of it, with the SpeedOfLight metrics (9 passes), for DISPATCHES (default 3) dispatches.
# ncu runs native/test/gpu/ncu-reference (the same launches as a plain CUDA program); its first
# kernel's cost is its run over 1 launch less the program alone, and each later kernel's is the
# difference between its runs over DISPATCHES and 1 launches, shared. kreplay reports each dispatch's
# wall time itself. Then `kreplay overhead` at 0.5x, 0.7x and 0.9x of the device memory.
# Run on the GPU machine from the repository root with Node.js on PATH and the CLI bundle in BUNDLE:
#   BUNDLE=.device OUT=out packages/bench/scripts/large-footprint-vs-ncu.sh
# Writes into OUT: timings.txt, ncu-*.csv/log, kreplay-profile.json, overhead-large.{json,txt},
# summary.txt (summarize-large-footprint.mjs), and OUT.tar.gz of them all.
set -euo pipefail
bundle=${BUNDLE:-.device}
out=${OUT:?set OUT to the output folder}
gib=${FOOTPRINT_GIB:-96}
fraction=${WRITE_FRACTION:-0.01}
dispatches=${DISPATCHES:-3}
overhead_footprints=${OVERHEAD_FOOTPRINTS:-0.5x,0.7x,0.9x}
overhead_args=${OVERHEAD_ARGS:---variant dirty-pages --shape B --dispatches 20 --passes 5 --warmup 0}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$here/speed-of-light-metrics.sh"
root=$(cd "$here/../../.." && pwd)
mkdir -p "$out"
kreplay() { node "$bundle/kreplay.mjs" "$@"; }
seconds() { date +%s.%N; }
timed() { # label launches command...
  local label=$1 count=$2 start end
  shift 2
  start=$(seconds); "$@"; end=$(seconds)
  echo "$label $(awk "BEGIN { print $end - $start }") $count" >> "$out/timings.txt"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/machine.txt"
ncu --version | tail -1 >> "$out/machine.txt"
nvcc -O2 -o /tmp/scatter-reference "$root/packages/native/test/gpu/ncu-reference/scatter-reference.cpp" -lcuda
ptx="$root/packages/native/src/kernels-cuda/ptx/kreplay-kernels.compute_90.ptx"
: > "$out/timings.txt"

timed program 1 /tmp/scatter-reference "$ptx" 1 "$gib" "$fraction" > "$out/program.txt"
for count in 1 "$dispatches"; do
  timed "ncu" "$count" ncu --clock-control none --csv --page raw --metrics "$metrics" \
    /tmp/scatter-reference "$ptx" "$count" "$gib" "$fraction" > "$out/ncu-$count.csv" 2> "$out/ncu-$count.log"
done

kreplay profile scatter --metrics "$metrics" --footprint "${gib}GiB" --write-fraction "$fraction" \
  --dispatches "$dispatches" --json > "$out/kreplay-profile.json"
# shellcheck disable=SC2086
kreplay overhead --driver cuda --footprint "$overhead_footprints" $overhead_args --json -o "$out/overhead-large.json" \
  > "$out/overhead-large.txt" 2>&1 || echo "overhead exited $?" >> "$out/overhead-large.txt"
node "$here/summarize-large-footprint.mjs" "$out" | tee "$out/summary.txt"
tar -C "$out" -czf "$out.tar.gz" .
