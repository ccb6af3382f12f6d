"""Summarizes launch-path.cu's run under ncu: per parameter size, bytes written and launch way, the
median gpu__time_duration over the rounds, and each way's difference from `params`.
    python3 summarize-launch-path.py order.txt ncu.csv
order.txt is the program's stdout (one "<parameter bytes> <bytes written> <way>" line per launch,
in launch order); ncu.csv is `ncu --csv --page raw --metrics gpu__time_duration.sum` of it."""
import csv
import statistics
import sys
from collections import defaultdict

order = [line.split() for line in open(sys.argv[1]) if line.strip()]
rows = list(csv.reader(open(sys.argv[2])))
header_index = next(index for index, row in enumerate(rows) if "gpu__time_duration.sum" in row)
header = rows[header_index]
column = header.index("gpu__time_duration.sum")
durations = [float(row[column].replace(",", "")) for row in rows[header_index + 1 :]
             if len(row) == len(header) and row[column].replace(",", "").replace(".", "").isdigit()]
if len(durations) != len(order):
    sys.exit(f"{len(durations)} kernels in the CSV, {len(order)} launches in the order file")
groups = defaultdict(list)
for (parameter_bytes, written, way), duration in zip(order, durations):
    groups[(int(parameter_bytes), int(written), way)].append(duration)
print("| parameter bytes | bytes written | way | median ns | - params (ns) | launches |")
print("|---|---|---|---|---|---|")
for (parameter_bytes, written, way), values in sorted(groups.items()):
    median = statistics.median(values)
    base = statistics.median(groups[(parameter_bytes, written, "params")])
    print(f"| {parameter_bytes} | {written} | {way} | {median:.0f} | {median - base:+.0f} | {len(values)} |")
