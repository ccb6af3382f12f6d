# Sourced by run.sh and experiments/profile-against-ncu/counter-experiment.sh:
# `ncu_values CSV METRICS ARGUMENTS...` runs
# `ncu --metrics METRICS ARGUMENTS...` (ARGUMENTS: ncu's other options, then the program) and profiles
# the program with ncu into a report beside CSV (CSV with .ncu-rep for .csv, removed
# afterwards) and writes CSV from the report at full precision (ncu-report-csv.py), or, where
# ncu's Python report interface cannot read it, ncu's own printed CSV, whose values are rounded to
# two decimals. Which one was written is appended to the folder's ncu-values.txt. ncu's output goes
# to CSV with .log for .csv; NCU_TIMEOUT (seconds, optional) bounds it. Returns ncu's exit status.
ncu_values() { # csv metrics arguments...
  local csv=$1 metrics=$2 report status=0
  shift 2
  report=${csv%.csv}
  rm -f "$report.ncu-rep"
  local runner=()
  [ -n "${NCU_TIMEOUT:-}" ] && runner=(timeout "$NCU_TIMEOUT")
  ${runner[@]+"${runner[@]}"} ncu --metrics "$metrics" --export "$report" --force-overwrite "$@" > "${csv%.csv}.log" 2>&1 || status=$?
  if [ ! -s "$report.ncu-rep" ]; then
    echo "$(basename "$csv"): no report (ncu exited $status)" >> "$(dirname "$csv")/ncu-values.txt"
    return "$status"
  fi
  local wanted=$metrics
  case $metrics in breakdown:*|*,breakdown:*) wanted= ;; esac
  if python3 "$(dirname "${BASH_SOURCE[0]}")/ncu-report-csv.py" "$report.ncu-rep" "$wanted" > "$csv" 2>> "${csv%.csv}.log"; then
    echo "$(basename "$csv"): full precision (ncu-report-csv.py)" >> "$(dirname "$csv")/ncu-values.txt"
  else
    ncu --import "$report.ncu-rep" --csv --page raw > "$csv"
    echo "$(basename "$csv"): ncu's printed values (two decimals): ncu-report-csv.py failed" >> "$(dirname "$csv")/ncu-values.txt"
  fi
  rm -f "$report.ncu-rep"
  return "$status"
}
