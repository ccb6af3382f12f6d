#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Issue 41's acceptance on one NVIDIA GPU, in one run: kernels inside CUDA graphs, captured node by
# node, replayed and profiled by kreplay, beside Nsight Compute on the same programs. The programs
# are not written for kreplay:
#   forward   cuda_graph_forward.py: a transformer's forward pass in a torch.cuda.CUDAGraph, replayed;
#   compiled  compiled_forward.py: a model under torch.compile(mode="reduce-overhead") (cudagraph trees);
#   nccl      nccl_allreduce.py: torch.distributed over NCCL at world size 1, collectives between
#             ordinary kernels (capture and replay only: its collectives must be counted, not recorded).
# Each measures a region between cudaProfilerStart and cudaProfilerStop. For each program:
#   1. the program alone (warm-up run first for forward and compiled: caches, the compiled code);
#   2. `kreplay capture --profile-from-start off --every-launch` of the region;
#   3. `kreplay replay --capture --verify full`, node by node (the default), and with
#      `--graph-profiling graph` (each graph launch replayed as one graph);
#   4. `kreplay profile capture:` with the SpeedOfLight metrics (node mode, the default), and with
#      `--graph-profiling graph` and gpu__time_duration.sum (one result per graph launch);
#   5. `ncu --graph-profiling node` with the same metrics on the region, NCU_RUNS times, and
#      `ncu --graph-profiling graph` with gpu__time_duration.sum once.
# Then summarize.mjs prints and writes summary.txt and summary.json; OUT is tarred into OUT.tar.gz.
# Run on the GPU machine from the repository root with Node.js on PATH and the CLI bundle in BUNDLE:
#   BUNDLE=.device OUT=/tmp/graph-programs packages/bench/scripts/graph-programs/run.sh
# Environment: PROGRAMS (default "forward nccl compiled"), NCU_RUNS (default 1), STEP_TIMEOUT
# (seconds, default 120: bounds each step), BUDGET (seconds, default 330: a step that would start
# after it is skipped and listed in skipped.txt, so that the summary is still written; with the
# defaults the run ends within about 450 s, BUDGET + STEP_TIMEOUT), KEEP_CAPTURES
# (1 keeps the capture folders; by default they are removed before the tar), PYTHON (default python3),
# FORWARD_ARGS, COMPILED_ARGS, NCCL_ARGS (the programs' own options).
# Writes into OUT one folder per program (steps.txt names its steps; each step's JSON, CSV and log),
# machine.txt, timings.txt (`label seconds exit=N`), skipped.txt, summary.txt and summary.json.
set -euo pipefail
bundle=${BUNDLE:-.device}
out=${OUT:?set OUT to the output folder}
programs=${PROGRAMS:-forward nccl compiled}
ncu_runs=${NCU_RUNS:-1}
export STEP_TIMEOUT=${STEP_TIMEOUT:-120}
budget=${BUDGET:-330}
python=${PYTHON:-python3}
graph_metrics=gpu__time_duration.sum
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../speed-of-light-metrics.sh
. "$here/../speed-of-light-metrics.sh"
# shellcheck source=../capture-acceptance/ncu-values.sh
. "$here/../capture-acceptance/ncu-values.sh"

program_of() { # name -> the program's script and its options
  case $1 in
    forward) echo "$here/cuda_graph_forward.py ${FORWARD_ARGS:-}" ;;
    compiled) echo "$here/compiled_forward.py ${COMPILED_ARGS:-}" ;;
    nccl) echo "$here/nccl_allreduce.py ${NCCL_ARGS:-}" ;;
    *) echo "run.sh: unknown program \"$1\" in PROGRAMS; the programs are forward, compiled and nccl" >&2; return 2 ;;
  esac
}
steps_of() { # name -> the steps run.sh takes for it (summarize.mjs expects their files)
  case $1 in
    nccl) echo "program capture replay" ;;
    *) echo "warm program capture replay replay-graph profile profile-graph ncu-node ncu-graph" ;;
  esac
}
# Everything given is checked before anything runs.
for name in $programs; do program_of "$name" > /dev/null || exit 2; done
if ! [[ $ncu_runs =~ ^[1-9][0-9]*$ ]]; then echo "run.sh: NCU_RUNS=$ncu_runs is not a whole number of runs, 1 or more" >&2; exit 2; fi
for number in "$STEP_TIMEOUT" "$budget"; do
  if ! [[ $number =~ ^[1-9][0-9]*$ ]]; then echo "run.sh: STEP_TIMEOUT and BUDGET are whole seconds, 1 or more (got \"$number\")" >&2; exit 2; fi
done
if [ ! -f "$bundle/kreplay.mjs" ]; then echo "run.sh: $bundle/kreplay.mjs is missing; set BUNDLE to the folder of the CLI bundle" >&2; exit 2; fi
kreplay=(node "$bundle/kreplay.mjs")
mkdir -p "$out"
: > "$out/timings.txt"
: > "$out/skipped.txt"
seconds() { date +%s.%N; }
# STEP_TIMEOUT bounds a command with timeout(1), and a shell function (ncu_values) through its own
# NCU_TIMEOUT, since timeout(1) cannot run a function.
limit() {
  if declare -F "$1" > /dev/null; then NCU_TIMEOUT=$STEP_TIMEOUT "$@"
  else timeout "$STEP_TIMEOUT" "$@"; fi
}
timed() { # label command... (stdout and stderr as the caller redirects them); never fails
  local label=$1 start end status=0
  shift
  if [ "$SECONDS" -ge "$budget" ]; then
    echo "$label after ${SECONDS} s, past BUDGET=$budget s" >> "$out/skipped.txt"
    return 0
  fi
  start=$(seconds); limit "$@" || status=$?; end=$(seconds)
  echo "$label $(awk "BEGIN { print $end - $start }") exit=$status" >> "$out/timings.txt"
}
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || echo "nvidia-smi failed"
  ncu --version | tail -1 || echo "ncu --version failed"
  "$python" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version())' || echo "torch not importable"
} > "$out/machine.txt" 2>&1

for name in $programs; do
  read -r -a program <<< "$(program_of "$name")"
  program=("$python" "${program[@]}")
  dir="$out/$name"
  capture="$dir/capture"
  mkdir -p "$dir"
  rm -rf "$capture"
  steps=$(steps_of "$name")
  echo "$steps" > "$dir/steps.txt"
  for step in $steps; do
    case $step in
      warm) timed "$name.warm" "${program[@]}" > "$dir/program-warm.json" 2> "$dir/program-warm.log" ;;
      program) timed "$name.program" "${program[@]}" > "$dir/program.json" 2> "$dir/program.log" ;;
      capture) timed "$name.capture" "${kreplay[@]}" capture --profile-from-start off --every-launch -o "$capture" --json -- "${program[@]}" \
        > "$dir/capture.json" 2> "$dir/capture.log" ;;
      replay) timed "$name.replay" "${kreplay[@]}" replay --capture "$capture" --verify full --json > "$dir/replay.json" 2> "$dir/replay.log" ;;
      replay-graph) timed "$name.replay-graph" "${kreplay[@]}" replay --capture "$capture" --verify full --graph-profiling graph --json \
        > "$dir/replay-graph.json" 2> "$dir/replay-graph.log" ;;
      profile) timed "$name.profile" "${kreplay[@]}" profile "capture:$capture" --metrics "$metrics" --json > "$dir/profile.json" 2> "$dir/profile.log" ;;
      profile-graph) timed "$name.profile-graph" "${kreplay[@]}" profile "capture:$capture" --metrics "$graph_metrics" --graph-profiling graph --json \
        > "$dir/profile-graph.json" 2> "$dir/profile-graph.log" ;;
      ncu-node)
        for run in $(seq 1 "$ncu_runs"); do
          timed "$name.ncu-node-$run" ncu_values "$dir/ncu-node-$run.csv" "$metrics" --graph-profiling node --profile-from-start off \
            --clock-control none --cache-control all "${program[@]}"
        done ;;
      ncu-graph) timed "$name.ncu-graph-1" ncu_values "$dir/ncu-graph-1.csv" "$graph_metrics" --graph-profiling graph --profile-from-start off \
        --clock-control none --cache-control all "${program[@]}" ;;
    esac
  done
  if [ -d "$capture" ]; then
    du -sb "$capture" > "$dir/capture-size.txt"
    [ "${KEEP_CAPTURES:-0}" = 1 ] || rm -rf "$capture"
  fi
done
echo "total $SECONDS exit=0" >> "$out/timings.txt"

node "$here/summarize.mjs" "$out" || echo "run.sh: summarize.mjs exited $?" >&2
tar -C "$out" -czf "$out.tar.gz" .
