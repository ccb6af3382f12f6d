#!/usr/bin/env bash
# Does the L2 flush before each pass explain how kreplay's SpeedOfLight values of short captured
# kernels differ from ncu's? One capture of train_step.py (PROGRAM_ARGS, default one layer), then
# for each cache control:
#   all:  `kreplay profile capture:` as it is (an L2 flush before each pass) and ncu --cache-control all;
#   none: KREPLAY_PROFILER_L2_FLUSH=off (no flush) and ncu --cache-control none;
# NCU_RUNS (default 2) runs of ncu each, compared kernel for kernel by summarize.mjs.
# Run on the GPU machine from the repository root with Node.js on PATH and the CLI bundle in BUNDLE:
#   BUNDLE=.device OUT=out experiments/profile-against-ncu/cache-control-experiment.sh
# Writes OUT/capture.json and, per cache control, OUT/<all|none>/{profile.json,ncu-N.csv,summary.txt};
# OUT.tar.gz holds them all.
set -euo pipefail
ncu_runs=${NCU_RUNS:-2}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiment-setup.sh
. "$here/experiment-setup.sh"
capture="$out/capture"
rm -rf "$capture"
"${program[@]}" > "$out/program-warm.json"
"${kreplay[@]}" capture --profile-from-start off --every-launch -o "$capture" --json -- "${program[@]}" \
  > "$out/capture.json" 2> "$out/capture.log"
for control in all none; do
  folder="$out/$control"
  mkdir -p "$folder"
  : > "$folder/timings.txt"
  cp "$out/machine.txt" "$folder/"
  flush=on
  [ "$control" = none ] && flush=off
  KREPLAY_PROFILER_L2_FLUSH=$flush "${kreplay[@]}" profile "capture:$capture" --metrics "$metrics" --json \
    > "$folder/profile.json" 2> "$folder/profile.log" || echo "profile exited $?" >> "$folder/timings.txt"
  for run in $(seq 1 "$ncu_runs"); do
    ncu --profile-from-start off --clock-control none --cache-control "$control" --csv --page raw --metrics "$metrics" \
      "${program[@]}" > "$folder/ncu-$run.csv" 2> "$folder/ncu-$run.log" || echo "ncu-$run exited $?" >> "$folder/timings.txt"
  done
  node "$acceptance/summarize.mjs" "$folder" > "$folder/summary.txt" 2>&1 || true
done
rm -rf "$capture"
tail -n +1 "$out"/*/summary.txt
tar -C "$out" -czf "$out.tar.gz" .
