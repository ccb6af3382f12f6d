#!/usr/bin/env bash
# Real programs profiled by kreplay and by Nsight Compute, side by side in one run on one NVIDIA GPU.
# Programs not written for kreplay: a PyTorch training step (../capture-acceptance/train_step.py) and
# greedy generation with a Hugging Face Llama-architecture model (generate_step.py). For each:
#   1. the program alone (its measured region between cudaProfilerStart and cudaProfilerStop);
#   2. `kreplay capture --every-launch --launch-count N` of that region (capture's cost);
#   3. `kreplay replay --capture --verify full` (every launch checked against the program's memory);
#   4. `kreplay profile capture:` with the SpeedOfLight metrics at its defaults (captured sequences
#      as ranges), then at each range length of RANGES (1 is one launch at a time);
#   5. `ncu` with the same metrics on the same N launches of the program, NCU_RUNS times.
# Then capture's cost against footprint: footprint-writer.cu at FOOTPRINTS GiB, each launch rewriting
# 1% of the pages, alone and under capture, and the disk's write rate beside it.
# Run on the GPU machine from the repository root with Node.js on PATH and the CLI bundle in BUNDLE:
#   BUNDLE=.device OUT=/tmp/out packages/bench/scripts/real-programs/run.sh
# Environment: PROGRAMS (default "train generate"), LAUNCHES (default 100), NCU_RUNS (default 2),
# RANGES (default "1 10 100"), FOOTPRINTS (default "0.5 4 16"), FOOTPRINT_LAUNCHES (default "5 25": two
# launch counts, so that the cost a launch after the first is their difference),
# STEP_TIMEOUT (seconds, bounds each step). Writes into OUT one folder per program, footprint/,
# machine.txt, timings.txt, and summary.txt (summarize.mjs), then OUT.tar.gz.
set -euo pipefail
bundle=${BUNDLE:-.device}
out=${OUT:?set OUT to the output folder}
programs=${PROGRAMS:-train generate}
launches=${LAUNCHES:-100}
ncu_runs=${NCU_RUNS:-2}
ranges=${RANGES:-1 10 100}
footprints=${FOOTPRINTS:-0.5 4 16}
footprint_launches=${FOOTPRINT_LAUNCHES:-5 25}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$here/../speed-of-light-metrics.sh"
# shellcheck source=/dev/null
. "$here/../capture-acceptance/ncu-values.sh"
kreplay=(node "$bundle/kreplay.mjs")
mkdir -p "$out"
: > "$out/timings.txt"
seconds() { date +%s.%N; }
# STEP_TIMEOUT bounds a command with timeout(1), and a shell function (ncu_values) through its own
# NCU_TIMEOUT, since timeout(1) cannot run a function.
limit() {
  if [ -z "${STEP_TIMEOUT:-}" ]; then "$@"
  elif declare -F "$1" > /dev/null; then NCU_TIMEOUT=${NCU_TIMEOUT:-$STEP_TIMEOUT} "$@"
  else timeout "$STEP_TIMEOUT" "$@"; fi
}
timed() { # label command... (stdout and stderr as the caller redirects them)
  local label=$1 start end status=0
  shift
  start=$(seconds); limit "$@" || status=$?; end=$(seconds)
  echo "$label $(awk "BEGIN { print $end - $start }") exit=$status" >> "$out/timings.txt"
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/machine.txt"
ncu --version | tail -1 >> "$out/machine.txt"
python3 -c 'import torch, transformers; print("torch", torch.__version__, "transformers", transformers.__version__)' >> "$out/machine.txt"
nproc >> "$out/machine.txt"

program_of() {
  case $1 in
    train) echo "python3 $here/../capture-acceptance/train_step.py ${TRAIN_ARGS:-}" ;;
    generate) echo "python3 $here/generate_step.py ${GENERATE_ARGS:-}" ;;
    *) echo "unknown program $1" >&2; return 2 ;;
  esac
}

for name in $programs; do
  read -r -a program <<< "$(program_of "$name")"
  dir="$out/$name"
  mkdir -p "$dir"
  "${program[@]}" > "$dir/program-warm.json" 2> "$dir/program-warm.log"
  timed "$name.program" "${program[@]}" > "$dir/program.json" 2> "$dir/program.log"
  rm -rf "$dir/capture"
  timed "$name.capture" "${kreplay[@]}" capture --profile-from-start off --every-launch --launch-count "$launches" \
    -o "$dir/capture" --json -- "${program[@]}" > "$dir/capture.json" 2> "$dir/capture.log"
  timed "$name.replay" "${kreplay[@]}" replay --capture "$dir/capture" --verify full --json > "$dir/replay.json" 2> "$dir/replay.log"
  timed "$name.profile" "${kreplay[@]}" profile "capture:$dir/capture" --metrics "$metrics" --json > "$dir/profile.json" 2> "$dir/profile.log"
  for k in $ranges; do
    timed "$name.profile-range-$k" "${kreplay[@]}" profile "capture:$dir/capture" --metrics "$metrics" --range "$k" --json \
      > "$dir/profile-range-$k.json" 2> "$dir/profile-range-$k.log"
  done
  for run in $(seq 1 "$ncu_runs"); do
    timed "$name.ncu-$run" ncu_values "$dir/ncu-$run.csv" "$metrics" --profile-from-start off --clock-control none \
      --cache-control all -c "$launches" "${program[@]}"
  done
  du -sb "$dir/capture" > "$dir/capture-size.txt"
done

# Capture's cost against footprint, with the disk's write rate (storing what changed is the floor).
dir="$out/footprint"
mkdir -p "$dir"
nvcc -O2 -o /tmp/footprint-writer "$here/footprint-writer.cu"
dd if=/dev/zero of="$dir/disk-probe" bs=1M count=2048 conv=fdatasync 2> "$dir/disk-write.txt" || true
rm -f "$dir/disk-probe"
for gib in $footprints; do
  for count in $footprint_launches; do
    timed "footprint-$gib-$count.program" /tmp/footprint-writer "$gib" "$count" > "$dir/program-$gib-$count.json"
    rm -rf "$dir/capture-$gib-$count"
    timed "footprint-$gib-$count.capture" "${kreplay[@]}" capture --profile-from-start off --every-launch -o "$dir/capture-$gib-$count" --json \
      -- /tmp/footprint-writer "$gib" "$count" > "$dir/capture-$gib-$count.json" 2> "$dir/capture-$gib-$count.log"
    du -sb "$dir/capture-$gib-$count" > "$dir/capture-$gib-$count-size.txt"
    rm -rf "$dir/capture-$gib-$count"
  done
done

node "$here/summarize.mjs" "$out" | tee "$out/summary.txt" || true
for name in $programs; do rm -rf "$out/$name/capture"; done
tar -C "$out" -czf "$out.tar.gz" .
