# The SpeedOfLight metrics (9 CUPTI passes on an H200) that the kreplay-against-ncu scripts collect
# with both tools; sourced by profile-range-vs-ncu.sh, large-footprint-vs-ncu.sh and
# capture-acceptance/run.sh.
# shellcheck disable=SC2034
metrics=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,gpc__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second
