#!/usr/bin/env python3
"""An ncu report (.ncu-rep) as the CSV of `ncu --csv --page raw`, with every value at full precision.

ncu's printed pages round a value to two decimals: a throughput of 0.0431% prints as 0.04 in every
run, so its runs seem to agree exactly and any other measurement seems to disagree. The report
holds the values themselves; ncu's Python report interface (extras/python/ncu_report.py of the
ncu installation) reads them.

    python3 ncu-report-csv.py REPORT.ncu-rep [METRIC,METRIC,...] > OUT.csv

With no metrics, every numeric metric of the first kernel is written except the device's
attributes, the launch's settings and the profiler's own. Rows are the kernels in the order ncu
profiled them; the columns are "ID", "Kernel Name" (demangled) and the metrics, then a row of
units, as ncu writes them (parseNcu in ncu-csv.mjs reads both). Exits 2 when the report cannot
be read.
"""
import glob
import os
import shutil
import sys

SKIPPED_PREFIXES = ('device__attribute', 'launch__', 'profiler__', 'numa__', 'pmsampling:', 'nvlink__')


def import_report_module():
    """ncu_report from PYTHONPATH, or from the extras/python folder beside the ncu on PATH."""
    try:
        import ncu_report  # noqa: F401
        return ncu_report
    except ImportError:
        pass
    ncu = shutil.which('ncu')
    folders = []
    if ncu:
        real = os.path.realpath(ncu)
        folders.append(os.path.join(os.path.dirname(real), 'extras', 'python'))
        folders += glob.glob(os.path.join(os.path.dirname(real), '..', '*', 'extras', 'python'))
    folders += glob.glob('/usr/local/cuda*/nsight-compute*/extras/python') + glob.glob('/opt/nvidia/nsight-compute/*/extras/python')
    for folder in folders:
        if os.path.exists(os.path.join(folder, 'ncu_report.py')):
            sys.path.insert(0, folder)
            import ncu_report
            return ncu_report
    raise ImportError('ncu_report.py was not found beside ncu (extras/python); set PYTHONPATH to that folder')


def kernel_name(report, action):
    """The demangled name with its parameters, as ncu's CSV prints it, where the module knows how."""
    base = getattr(report.IAction, 'NameBase_DEMANGLED', None)
    try:
        return action.name(base) if base is not None else action.name()
    except TypeError:
        return action.name()


def metric_value(action, name):
    """The metric's value as a float, or None where the kernel has no numeric value for it."""
    metric = action.metric_by_name(name)
    if metric is None:
        return None
    try:
        value = metric.as_double()
    except Exception:  # a string metric
        return None
    return value if value == value else None


def quoted(cells):
    return ','.join('"' + str(cell).replace('"', '""') + '"' for cell in cells)


def main():
    if len(sys.argv) < 2:
        print('usage: ncu-report-csv.py REPORT.ncu-rep [METRIC,METRIC,...]', file=sys.stderr)
        return 2
    try:
        report = import_report_module()
        context = report.load_report(sys.argv[1])
    except Exception as error:  # the module or the report
        print(f'ncu-report-csv: {sys.argv[1]} could not be read: {error}', file=sys.stderr)
        return 2
    actions = []
    for range_index in range(context.num_ranges()):
        profiled = context.range_by_idx(range_index)
        actions += [profiled.action_by_idx(index) for index in range(profiled.num_actions())]
    if len(sys.argv) > 2 and sys.argv[2]:
        metrics = [name for name in sys.argv[2].split(',') if name]
    elif actions:
        metrics = sorted(name for name in actions[0].metric_names()
                         if not name.startswith(SKIPPED_PREFIXES) and metric_value(actions[0], name) is not None)
    else:
        metrics = []
    print(quoted(['ID', 'Kernel Name'] + metrics))
    print(quoted(['', ''] + [''] * len(metrics)))
    for index, action in enumerate(actions):
        values = [metric_value(action, name) for name in metrics]
        print(quoted([index, kernel_name(report, action)] + ['' if value is None else repr(value) for value in values]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
