# Sourced by the experiments beside it (cache-control-experiment.sh, touch-experiment.sh), with
# `here` set to this folder: the bundle, the output folder, the program (train_step.py with
# PROGRAM_ARGS, default one layer, or the command line in PROGRAM), the SpeedOfLight metrics, and
# OUT/machine.txt.
bundle=${BUNDLE:-.device}
out=${OUT:?set OUT to the output folder}
program_args=${PROGRAM_ARGS:---layers 1}
# The capture acceptance's folder in @kreplay/bench: its program, metrics, ncu_values and summary.
acceptance=$(cd "$here/../../packages/bench/scripts/capture-acceptance" && pwd)
# shellcheck source=/dev/null
. "$acceptance/../speed-of-light-metrics.sh"
# shellcheck disable=SC2206
program=(python3 "$acceptance/train_step.py" $program_args)
# shellcheck disable=SC2206
[ -n "${PROGRAM:-}" ] && program=($PROGRAM)
kreplay=(node "$bundle/kreplay.mjs")
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/machine.txt"
ncu --version | tail -1 >> "$out/machine.txt"
