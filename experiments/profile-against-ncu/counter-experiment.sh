#!/usr/bin/env bash
# Which counters make kreplay's l1tex throughput of captured kernels read higher than ncu's, and what
# in kreplay's passes makes them differ? One capture of train_step.py (PROGRAM_ARGS, default one
# layer); its standalone replay (replay.json: which regions were relocated and why);
# `kreplay profile capture:` once per variant in VARIANTS; then NCU_RUNS (default 2) runs of
# `ncu --cache-control all` on the program with the SpeedOfLight metrics and, unless NCU_SET=sol,
# the raw counters below, as ncu-N.csv (full precision: ncu-values.sh). Both measure the first
# LAUNCHES launches (default 50). With BREAKDOWN (metrics, comma-separated), ncu measures their
# breakdowns once more (ncu-breakdown.csv) and kreplay the sub-metrics ncu listed
# (breakdown/profile.json), to find which of them differ. With NCU_MOVED_RUNS (a count), ncu
# profiles train_step.py that many more times with --pad-mib PAD_MIB (default 34), its memory on
# other physical pages, as ncu-moved-N.csv. With NCU_REPLAY_RUNS (a count), ncu profiles
# `kreplay replay --capture` of the same launches that many times (ncu-replay-N.csv): whether
# the replayed kernels, measured by ncu itself, agree with the program's (replay-under-ncu.mjs);
# NCU_REPLAY_CACHE_CONTROL (all, the default, or none) is its --cache-control for those runs.
# So that one capture serves several shorter calls on a machine that stays warm: KEEP_CAPTURE=1
# keeps the capture folder afterwards and uses one already at CAPTURE when its manifest says it is
# complete and it was made of the same program and CAPTURE_LAUNCHES (CAPTURE.made-of says of what;
# capture.json and attributes.txt are then not written); REPLAY=off leaves out the
# standalone replay (replay.json); CAPTURE_LAUNCHES=N captures only the step's first N launches
# (default: every launch). NCU_FIRST_RUN (default 1) numbers the ncu runs from there, so that
# the runs of several calls can share one folder. VARIANT_TIMEOUT (seconds, default none) stops a
# variant's profile that runs longer, recorded in timings.txt as exited 124, so that a variant that
# hangs leaves the call's time to the variants and ncu runs after it.
# A variant is <name>:<strategy>:<metric set>[:<setting>,...]:
#   <strategy>      full (every byte restored) or dirty-pages (written pages), device tier; or
#                   default (profile's own choices for captures: dirty-pages, two warm runs, three
#                   samples' medians);
#   <metric set>    sol (the SpeedOfLight metrics), or all (those and the counters: COUNTERS, a
#                   comma-separated list, or the list below);
#   <setting>       NAME=VALUE for the profile's environment, among them
#                   KREPLAY_CUDA_COPY_PATH=api (restores by copy engines only),
#                   KREPLAY_PROFILER_L2_FLUSH=copy (a copy engine reads the flush buffer; with the
#                   two, nothing but the profiled kernel runs on the multiprocessors from one pass
#                   to the next, as under ncu), KREPLAY_PROFILER_L2_FLUSH=read|write (the flush
#                   reads its buffer, leaving the L2 full of clean lines, or writes it, drops its
#                   lines and reads it; write-discard, the default, writes and drops, leaving the L2
#                   empty), KREPLAY_PROFILER_L2_FLUSH_ROUNDS
#                   (reads of the buffer per flush), KREPLAY_PROFILER_L2_DIRTY_KIB (KiB of the flush
#                   buffer written after each flush, 2560 unless set: dirty lines not the kernel's), KREPLAY_PROFILER_TLB=unmap|thrash
#                   (cuda-translation-eviction.hpp), KREPLAY_PROFILER_ICACHE=evict|reload|off
#                   and KREPLAY_PROFILER_ICACHE_KIB (cuda-instruction-eviction.hpp),
#                   KREPLAY_PROFILER_REPLAY=kernel (CUPTI replays each kernel itself:
#                   cuda-profiler-session.hpp); or --FLAG=VALUE, a flag of `kreplay profile`
#                   (for example --warm-runs=0).
# ARCHIVE (a path outside OUT, optional) packs OUT into one .tar.gz after every step (ncu's reports
# left out): the GPU machine brings back at most 8 files, so a call cut short by its limit brings
# back, in that one file, every step that finished.
# Run on the GPU machine from the repository root with Node.js on PATH and the CLI bundle in BUNDLE:
#   BUNDLE=.device OUT=out CAPTURE=/tmp/capture experiments/profile-against-ncu/counter-experiment.sh
# Writes OUT/{capture.json,attributes.txt,replay.json,timings.txt,ncu-values.txt,ncu-runs.txt}, OUT/<variant>/profile.json and OUT/ncu-N.csv as each
# step ends (so a run cut short keeps what finished); compare-counters.mjs reads the folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiment-setup.sh
. "$here/experiment-setup.sh"
# shellcheck source=../../packages/bench/scripts/capture-acceptance/ncu-values.sh
. "$acceptance/ncu-values.sh"
capture=${CAPTURE:-$out/capture}
launches=${LAUNCHES:-50}
ncu_runs=${NCU_RUNS:-2}
variants=${VARIANTS:-base:dirty-pages:all full:full:all:KREPLAY_CUDA_COPY_PATH=api full-icache:full:all:KREPLAY_CUDA_COPY_PATH=api,KREPLAY_PROFILER_ICACHE=evict}
counters=${COUNTERS:-sm__cycles_active.avg,sm__cycles_active.sum,l1tex__cycles_active.sum,gpc__cycles_elapsed.max,l1tex__t_sectors.sum,l1tex__t_sectors_lookup_hit.sum,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_bank_reads.sum,l1tex__lsuin_requests.sum,l1tex__f_wavefronts.sum,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,dram__sectors_read.sum,dram__sectors_write.sum,smsp__inst_executed.sum,sm__warps_active.sum}
seconds() { date +%s.%N; }
archive() { # OUT as it is now, into ARCHIVE (whole or not at all: packed beside it, then moved)
  [ -n "${ARCHIVE:-}" ] || return 0
  tar czf "$ARCHIVE.partial" --exclude='*.ncu-rep' -C "$(dirname "$out")" "$(basename "$out")" && mv "$ARCHIVE.partial" "$ARCHIVE"
}
timed() { # label command...
  local label=$1 start end
  shift
  start=$(seconds)
  "$@" || echo "$label exited $?" >> "$out/timings.txt"
  end=$(seconds)
  echo "$label $(awk "BEGIN { print $end - $start }")" >> "$out/timings.txt"
  archive
}
if [ -n "${ARCHIVE:-}" ]; then
  case $(realpath -m "$ARCHIVE")/ in
    "$(realpath -m "$out")"/*)
      echo "counter-experiment.sh: ARCHIVE ($ARCHIVE) lies inside OUT ($out), so it would pack itself; name a path outside OUT, for example \$OUT/out.tgz with OUT=/tmp/out." >&2
      exit 2 ;;
  esac
  mkdir -p "$(dirname "$ARCHIVE")"
fi
touch "$out/timings.txt"
archive
selection=(--every-launch)
[ -n "${CAPTURE_LAUNCHES:-}" ] && selection=(--launch-count "$CAPTURE_LAUNCHES")
# What the capture was made of, beside it: a kept capture of another program or selection is not used.
made_of="${program[*]} ${selection[*]}"
# The manifest is the process's (CAPTURE/processes/<pid>), or at the top of a capture made before them.
if [ -n "${KEEP_CAPTURE:-}" ] && grep -qE '"complete": *true' "$capture"/manifest.json "$capture"/processes/*/manifest.json 2>/dev/null &&
  [ "$(cat "$capture.made-of" 2>/dev/null)" = "$made_of" ]; then
  echo "capture reused: $capture ($made_of)" >> "$out/timings.txt"
else
  rm -rf "$capture" "$capture.made-of"
  timed capture "${kreplay[@]}" capture --profile-from-start off "${selection[@]}" -o "$capture" --json -- "${program[@]}" \
    > "$out/capture.json" 2> "$out/capture.log"
  # Which launch attributes the program's launches carried, and how often.
  grep -rhoE '"name":"CU_LAUNCH_ATTRIBUTE_[A-Z0-9_]+","values":\[[^]]*\]' "$capture" --include='*.json' | sort | uniq -c > "$out/attributes.txt" || true
  if [ -n "${KEEP_CAPTURE:-}" ]; then echo "$made_of" > "$capture.made-of"; fi
fi
if [ "${REPLAY:-on}" != off ]; then
  timed replay "${kreplay[@]}" replay --capture "$capture" --verify full --json > "$out/replay.json" 2> "$out/replay.log"
fi
variant_limit=()
[ -n "${VARIANT_TIMEOUT:-}" ] && variant_limit=(timeout --kill-after=10 "$VARIANT_TIMEOUT")
for variant in $variants; do
  IFS=: read -r name strategy set settings <<< "$variant"
  chosen=$metrics
  [ "$set" = all ] && chosen="$metrics,$counters"
  IFS=, read -r -a given <<< "$settings"
  environment=() flags=()
  for setting in "${given[@]}"; do
    case $setting in --*) flags+=("$setting") ;; *) environment+=("$setting") ;; esac
  done
  restore=(--strategy "$strategy" --tier device)
  [ "$strategy" = default ] && restore=()
  mkdir -p "$out/$name"
  timed "profile-$name" "${variant_limit[@]}" env "${environment[@]}" \
    "${kreplay[@]}" profile "capture:$capture" "${restore[@]}" "${flags[@]}" --launch-count "$launches" --metrics "$chosen" --json \
    > "$out/$name/profile.json" 2> "$out/$name/profile.log"
done
ncu_metrics=$metrics,$counters
[ "${NCU_SET:-all}" = sol ] && ncu_metrics=$metrics
ncu_options=(--profile-from-start off --clock-control none --cache-control all --launch-count "$launches")
touch "$out/ncu-values.txt" "$out/ncu-runs.txt"
# What each ncu run measured and how, one line a run in ncu-runs.txt: pool-runs.mjs pools only runs
# whose lines agree (the program is named without this folder's path, which differs between machines).
program_named=${PROGRAM:-train_step.py $program_args}
first_run=${NCU_FIRST_RUN:-1}
for run in $(seq "$first_run" $((first_run + ncu_runs - 1))); do
  echo "ncu-$run.csv: set ${NCU_SET:-all} ${ncu_options[*]} -- $program_named" >> "$out/ncu-runs.txt"
  timed "ncu-$run" ncu_values "$out/ncu-$run.csv" "$ncu_metrics" "${ncu_options[@]}" "${program[@]}"
done
# ncu on kreplay's replay of the same launches, each run once (no verification, so that no kernel
# of kreplay's runs beside them; ncu's own kernel filter leaves out kreplay's kernels anyway).
replay_options=(--clock-control none --cache-control "${NCU_REPLAY_CACHE_CONTROL:-all}" --kernel-name 'regex:^(?!kreplay_)' --launch-count "$launches")
for run in $(seq "$first_run" $((first_run + ${NCU_REPLAY_RUNS:-0} - 1))); do
  echo "ncu-replay-$run.csv: set ${NCU_SET:-all} ${replay_options[*]} -- kreplay replay of a capture of $program_named ${selection[*]}" >> "$out/ncu-runs.txt"
  timed "ncu-replay-$run" ncu_values "$out/ncu-replay-$run.csv" "$ncu_metrics" "${replay_options[@]}" \
    "${kreplay[@]}" replay --capture "$capture" --launch-count "$launches" --passes 1 --verify off
done
for run in $(seq 1 "${NCU_MOVED_RUNS:-0}"); do
  echo "ncu-moved-$run.csv: set ${NCU_SET:-all} ${ncu_options[*]} -- $program_named --pad-mib ${PAD_MIB:-34}" >> "$out/ncu-runs.txt"
  timed "ncu-moved-$run" ncu_values "$out/ncu-moved-$run.csv" "$ncu_metrics" "${ncu_options[@]}" "${program[@]}" --pad-mib "${PAD_MIB:-34}"
done
if [ -n "${BREAKDOWN:-}" ]; then
  timed ncu-breakdown ncu_values "$out/ncu-breakdown.csv" "breakdown:${BREAKDOWN//,/,breakdown:}" "${ncu_options[@]}" "${program[@]}"
  # The sub-metrics ncu listed (their pct_of_peak rollups), not the breakdown:<metric> columns.
  parts=$(head -1 "$out/ncu-breakdown.csv" | tr -d '"' | tr , '\n' | grep -v : | grep pct_of_peak | paste -sd, -)
  mkdir -p "$out/breakdown"
  timed profile-breakdown "${kreplay[@]}" profile "capture:$capture" --launch-count "$launches" --metrics "$parts" --json \
    > "$out/breakdown/profile.json" 2> "$out/breakdown/profile.log"
fi
[ -n "${KEEP_CAPTURE:-}" ] || rm -rf "$capture"
archive
