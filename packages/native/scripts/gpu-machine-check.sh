#!/usr/bin/env bash
# On a GPU machine with Node.js on PATH: runs the cuda driver's GPU tests and measurements from a
# folder made by scripts/bundle-gpu-tests.mjs (with kreplay.node copied into it), and writes the
# logs and JSON reports to an output folder. Prints failures and the summary; the logs hold all.
#   scripts/gpu-machine-check.sh <bundle folder> <output folder>
set -uo pipefail
bundle=$(cd "$1" && pwd)
out=$2
mkdir -p "$out"
export KREPLAY_NATIVE_BINDING="$bundle/kreplay.node"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max,clocks.max.sm --format=csv
  uname -r
  node --version
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
started=$(date +%s)
timeout "${KREPLAY_TEST_SECONDS:-300}" node "$bundle/cuda-tests.mjs" "$out/tests.json" > "$out/tests.log" 2>&1
echo "tests: exit $? after $(( $(date +%s) - started )) s"
grep -E '^  ×|passed, .* failed' -A3 "$out/tests.log" | head -n 80
# The snapshot strategy kit on this driver, where @kreplay/snapshot's scripts/bundle-gpu-tests.mjs
# put it in the same folder.
if [ -f "$bundle/strategy-kit-tests.mjs" ]; then
  started=$(date +%s)
  timeout "${KREPLAY_TEST_SECONDS:-300}" node "$bundle/strategy-kit-tests.mjs" "$out/strategy-kit.json" > "$out/strategy-kit.log" 2>&1
  echo "strategy kit: exit $? after $(( $(date +%s) - started )) s"
  grep -E '^  ×|passed, .* failed' -A3 "$out/strategy-kit.log" | head -n 40
fi
# The replay engine on this driver (captures whose kernels write host memory, verified), where
# @kreplay/replay's scripts/bundle-gpu-tests.mjs put it in the same folder.
if [ -f "$bundle/replay-tests.mjs" ]; then
  started=$(date +%s)
  timeout "${KREPLAY_TEST_SECONDS:-300}" node "$bundle/replay-tests.mjs" "$out/replay-tests.json" > "$out/replay-tests.log" 2>&1
  echo "replay tests: exit $? after $(( $(date +%s) - started )) s"
  grep -E '^  ×|passed, .* failed' -A3 "$out/replay-tests.log" | head -n 40
fi
started=$(date +%s)
timeout "${KREPLAY_MEASURE_SECONDS:-200}" node "$bundle/measure-cuda.mjs" "$out/measure.json" > "$out/measure.log" 2>&1
echo "measure: exit $? after $(( $(date +%s) - started )) s"
cat "$out/measure.log"
# The CUPTI Checkpoint API: save and restore times, every restore checked bit-exact.
timeout "${KREPLAY_CHECKPOINT_SECONDS:-120}" node "$bundle/measure-cupti-checkpoint.mjs" "$out/checkpoint.json" > "$out/checkpoint.log" 2>&1
echo "checkpoint: exit $?"
cat "$out/checkpoint.log"
# An error the device raises while running work, in a process of its own (it spoils the context).
timeout 60 node "$bundle/check-cuda-device-fault.mjs" "$bundle/kernels/scale-floats.ptx" > "$out/device-fault.log" 2>&1
echo "device fault check: exit $?"
cat "$out/device-fault.log"
# Optionally, the tests again under compute-sanitizer (KREPLAY_SANITIZE="memcheck racecheck"),
# limited to KREPLAY_SANITIZE_FILTER and KREPLAY_SANITIZE_SECONDS each: out-of-bounds or
# misaligned accesses and shared-memory races that do not crash a normal run.
for tool in ${KREPLAY_SANITIZE:-}; do
  started=$(date +%s)
  KREPLAY_TEST_FILTER="${KREPLAY_SANITIZE_FILTER:-}" timeout "${KREPLAY_SANITIZE_SECONDS:-180}" \
    compute-sanitizer --tool "$tool" --print-limit 20 node "$bundle/cuda-tests.mjs" > "$out/$tool.log" 2>&1
  echo "$tool: exit $? after $(( $(date +%s) - started )) s"
  grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed, .* failed|Invalid|Race reported|hazard' "$out/$tool.log" | sort | uniq -c | head -n 20
done
