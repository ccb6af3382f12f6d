"""A stand-in for ncu's Python report interface (extras/python/ncu_report.py) in tests: a "report"
is a JSON file of kernels, each {"name": {"demangled": ..., "function": ...}, "metrics": {...}},
split into ranges as given ({"ranges": [[kernel, ...], ...]})."""
import json


class IMetric:
    def __init__(self, value):
        self.value = value

    def as_double(self):
        if isinstance(self.value, str):
            raise TypeError('a string metric')
        return float(self.value)


class IAction:
    NameBase_FUNCTION = 0
    NameBase_DEMANGLED = 1

    def __init__(self, kernel):
        self.kernel = kernel

    def name(self, base=NameBase_FUNCTION):
        return self.kernel['name']['demangled' if base == IAction.NameBase_DEMANGLED else 'function']

    def metric_names(self):
        return list(self.kernel['metrics'])

    def metric_by_name(self, name):
        return IMetric(self.kernel['metrics'][name]) if name in self.kernel['metrics'] else None


class IRange:
    def __init__(self, kernels):
        self.kernels = kernels

    def num_actions(self):
        return len(self.kernels)

    def action_by_idx(self, index):
        return IAction(self.kernels[index])


class IContext:
    def __init__(self, ranges):
        self.ranges = ranges

    def num_ranges(self):
        return len(self.ranges)

    def range_by_idx(self, index):
        return IRange(self.ranges[index])


def load_report(path):
    with open(path) as report:
        return IContext(json.load(report)['ranges'])
