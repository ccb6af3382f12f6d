#!/usr/bin/env bash
# Issue 16's acceptance on one NVIDIA GPU, in one run, on a program not written for kreplay: one
# training step of a PyTorch transformer (train_step.py: bf16 autocast, AdamW, attention, cuBLAS,
# cuDNN and torch.compile/Triton kernels).
#   1. the program alone, then under `kreplay capture` (every launch of the step): capture's cost;
#   2. `kreplay replay --capture --verify full`: each launch standalone, checked against the
#      program's own memory after it;
#   3. `kreplay profile capture:` and `ncu` (NCU_RUNS runs, default 2) on the program itself, the
#      SpeedOfLight metrics kernel for kernel.
# Run on the GPU machine from the repository root with Node.js on PATH and the CLI bundle in BUNDLE:
#   BUNDLE=.device OUT=out packages/bench/scripts/capture-acceptance/run.sh
# Writes into OUT the JSON and CSV of each step (ncu's at full precision: ncu-values.sh), timings.txt
# and summary.txt (summarize.mjs).
set -euo pipefail
bundle=${BUNDLE:-.device}
out=${OUT:?set OUT to the output folder}
ncu_runs=${NCU_RUNS:-2}
program_args=${PROGRAM_ARGS:-}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$here/../speed-of-light-metrics.sh"
# shellcheck source=ncu-values.sh
. "$here/ncu-values.sh"
program=(python3 "$here/train_step.py")
# shellcheck disable=SC2206
program+=($program_args)
mkdir -p "$out"
capture="$out/capture"
rm -rf "$capture"
kreplay=(node "$bundle/kreplay.mjs")
seconds() { date +%s.%N; }
# STEP_TIMEOUT (seconds, optional) bounds each step, so that a slow one still leaves a summary
# (ncu_values bounds its ncu run by NCU_TIMEOUT).
export NCU_TIMEOUT=${STEP_TIMEOUT:-}
limit() { if [ -n "${STEP_TIMEOUT:-}" ] && [ "$(type -t "$1")" != function ]; then timeout "$STEP_TIMEOUT" "$@"; else "$@"; fi; }
timed() { # label command...
  local label=$1 start end
  shift
  start=$(seconds); limit "$@"; end=$(seconds)
  echo "$label $(awk "BEGIN { print $end - $start }")" >> "$out/timings.txt"
}
: > "$out/timings.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/machine.txt"
ncu --version | tail -1 >> "$out/machine.txt"
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' >> "$out/machine.txt"

# The first run compiles the torch.compile'd function into the cache, so the runs compared below do not.
"${program[@]}" > "$out/program-warm.json"
timed program "${program[@]}" > "$out/program.json"
timed capture "${kreplay[@]}" capture --profile-from-start off --every-launch -o "$capture" --json -- "${program[@]}" \
  > "$out/capture.json" 2> "$out/capture.log" || echo "capture exited $?" >> "$out/timings.txt"
timed replay "${kreplay[@]}" replay --capture "$capture" --verify full --json > "$out/replay.json" 2> "$out/replay.log" ||
  echo "replay exited $?" >> "$out/timings.txt"
timed profile "${kreplay[@]}" profile "capture:$capture" --metrics "$metrics" --json > "$out/profile.json" 2> "$out/profile.log" ||
  echo "profile exited $?" >> "$out/timings.txt"
: > "$out/ncu-values.txt"
for run in $(seq 1 "$ncu_runs"); do
  timed "ncu-$run" ncu_values "$out/ncu-$run.csv" "$metrics" --profile-from-start off --clock-control none "${program[@]}" ||
    echo "ncu-$run exited $?" >> "$out/timings.txt"
done
du -sb "$capture" > "$out/capture-size.txt"
node "$here/summarize.mjs" "$out" | tee "$out/summary.txt"
