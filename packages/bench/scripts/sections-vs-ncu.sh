#!/usr/bin/env bash
# Each section of `kreplay profile --section X` against `ncu --section X` on one NVIDIA GPU: the same
# kernel (sections-vs-ncu/sections-program.cu, one launch of demo::saxpy_kernel<4>) profiled by ncu
# (NCU_RUNS runs per section, default 3: its run-to-run spread) and by kreplay from a capture of the
# program, both as `--csv --page raw`; then compare-sections.mjs compares the metric names each
# section collects and each value against ncu's spread. Run on the GPU machine from the repository
# root, with Node.js, nvcc and ncu on PATH and the CLI bundle (pnpm --filter @kreplay/cli bundle
# --out .device) in BUNDLE:
#   BUNDLE=.device OUT=out packages/bench/scripts/sections-vs-ncu.sh
# Environment: SECTIONS (default: every section kreplay defines), NCU_RUNS (default 3), TOLERANCE (a
# relative tolerance beyond ncu's spread, default 0).
# Writes into OUT: machine.txt, selection.txt (both tools select the kernel by ncu's function name),
# ncu-baseline.csv (the columns ncu's raw page holds whatever it collects), sections.json (kreplay's
# definitions, with what each leaves out), ncu-<Section>-<n>.csv, kreplay-<Section>.csv and .json,
# and summary.txt / summary.json. Exits 1 when a section's names or values differ.
set -euo pipefail
bundle=${BUNDLE:-.device}
out=${OUT:?set OUT to the output folder}
runs=${NCU_RUNS:-3}
tolerance=${TOLERANCE:-0}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
kreplay() { node "$bundle/kreplay.mjs" "$@"; }
# The launches of a raw page (its rows after the header and the units).
launches() { node -e 'const t = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter((l) => l.startsWith("\"")); console.log(Math.max(0, t.length - 2));' "$1"; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/machine.txt"
ncu --version | tail -1 >> "$out/machine.txt"
nvcc -O2 -o "$out/sections-program" "$here/sections-vs-ncu/sections-program.cu"
program="$out/sections-program"
kreplay profile --list-sections --json > "$out/sections.json"
sections=${SECTIONS:-$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).sections.map((s) => s.identifier).join(" "))' "$out/sections.json")}

# The kernel by its function name (no namespace, template arguments or parameters), as ncu's
# --kernel-name-base function reads it and kreplay's default does: each must select the one launch.
kernel=saxpy_kernel
ncu --kernel-name "$kernel" --kernel-name-base function --launch-count 1 --metrics gpu__time_duration.sum \
  --csv --page raw "$program" > "$out/ncu-baseline.csv" 2> "$out/ncu-baseline.log"
rm -rf "$out/capture"
kreplay capture --kernel-name "$kernel" -o "$out/capture" --json -- "$program" > "$out/capture.json"
captured=$(node -e 'const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n"); console.log(JSON.parse(lines.pop()).capture?.launches ?? 0)' "$out/capture.json")
echo "ncu --kernel-name $kernel: $(launches "$out/ncu-baseline.csv") launch(es); kreplay capture --kernel-name $kernel: $captured launch(es)" | tee "$out/selection.txt"

for section in $sections; do
  for run in $(seq 1 "$runs"); do
    ncu --section "$section" --kernel-name "$kernel" --launch-count 1 --clock-control none --cache-control all \
      --csv --page raw "$program" > "$out/ncu-$section-$run.csv" 2> "$out/ncu-$section-$run.log"
  done
  kreplay profile --section "$section" --csv --page raw -o "$out/kreplay-$section.json" -f "capture:$out/capture" \
    > "$out/kreplay-$section.csv" 2> "$out/kreplay-$section.log"
done

status=0
node "$here/sections-vs-ncu/compare-sections.mjs" "$out" "$tolerance" || status=$?
# One file for machines that bring back only a few.
tar -C "$out" --exclude=capture --exclude=sections-program -czf "$out.tar.gz" .
exit "$status"
