#!/usr/bin/env bash
# Does touching the memory a kernel can reach before each pass make kreplay's SpeedOfLight values of
# short captured kernels agree with ncu's? One capture of train_step.py (PROGRAM_ARGS, default one
# layer), NCU_RUNS (default 3) runs of `ncu --cache-control all` on the program (or the ncu-N.csv
# files of an earlier run of the same program in NCU_FROM), then `kreplay profile capture:` once per
# variant in VARIANTS, each compared kernel for kernel by summarize.mjs. A variant is off (no touch)
# or <how>-<stride>: KREPLAY_PROFILER_TOUCH=<how> (copy or kernel), KREPLAY_PROFILER_TOUCH_STRIDE=<stride>;
# <flush>+<variant> also sets KREPLAY_PROFILER_L2_FLUSH=<flush> (on, read, off, evict-last).
# Run on the GPU machine from the repository root with Node.js on PATH and the CLI bundle in BUNDLE:
#   BUNDLE=.device OUT=out experiments/profile-against-ncu/touch-experiment.sh
# Writes OUT/ncu-N.csv and OUT/<variant>/{profile.json,ncu-N.csv,summary.txt}; OUT.tar.gz holds them all.
set -euo pipefail
ncu_runs=${NCU_RUNS:-3}
variants=${VARIANTS:-off copy-65536 copy-2097152 kernel-65536}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiment-setup.sh
. "$here/experiment-setup.sh"
: > "$out/timings.txt"
capture="$out/capture"
rm -rf "$capture"
"${program[@]}" > "$out/program-warm.json"
"${kreplay[@]}" capture --profile-from-start off --every-launch -o "$capture" --json -- "${program[@]}" \
  > "$out/capture.json" 2> "$out/capture.log"
if [ -n "${NCU_FROM:-}" ]; then
  cp "$NCU_FROM"/ncu-*.csv "$out/"
else
  for run in $(seq 1 "$ncu_runs"); do
    ncu --profile-from-start off --clock-control none --cache-control all --csv --page raw --metrics "$metrics" \
      "${program[@]}" > "$out/ncu-$run.csv" 2> "$out/ncu-$run.log" || echo "ncu-$run exited $?" >> "$out/timings.txt"
  done
fi
for variant in $variants; do
  folder="$out/$variant"
  mkdir -p "$folder"
  cp "$out/machine.txt" "$out/timings.txt" "$out"/ncu-*.csv "$folder/"
  flush=on
  touch=$variant
  if [[ $variant == *+* ]]; then flush=${variant%%+*} touch=${variant#*+}; fi
  how=${touch%-*}
  stride=${touch##*-}
  [ "$touch" = off ] && how=copy stride=0
  KREPLAY_PROFILER_L2_FLUSH=$flush KREPLAY_PROFILER_TOUCH=$how KREPLAY_PROFILER_TOUCH_STRIDE=$stride "${kreplay[@]}" profile "capture:$capture" --metrics "$metrics" --json \
    > "$folder/profile.json" 2> "$folder/profile.log" || echo "profile exited $?" >> "$folder/timings.txt"
  node "$acceptance/summarize.mjs" "$folder" > "$folder/summary.txt" 2>&1 || true
done
rm -rf "$capture"
tail -n +1 "$out"/*/summary.txt
tar -C "$out" -czf "$out.tar.gz" .
