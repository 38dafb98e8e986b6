#!/usr/bin/python3
"""Medians of timing.log (timing.sh's rounds) per configuration: the app's timer ("GPU Time") and
the process wall time, fastest and slowest in brackets; ratios native / configuration.

    medians.py timing.log > table.md
"""
import collections
import re
import statistics
import sys

LINE = re.compile(r"(\d+) (\w+) (\S+) \S+ rc=(\d+) wall=([\d.]+) gpu=([\d.]+)")
LABELS = {"native": "native", "new": "4cb7545, no compiler", "old": "5b3c710, no compiler",
          "default": "4cb7545, its compiler"}
timer, wall, failed = collections.defaultdict(list), collections.defaultdict(list), []
for line in open(sys.argv[1]):
    match = LINE.match(line)
    if not match:
        continue
    _, config, app, rc, seconds, gpu = match.groups()
    if rc != "0":
        failed.append(line.strip())
    timer[config].append(float(gpu))
    wall[config].append(float(seconds))


def cell(values):
    return "%.4g (%.3g-%.3g)" % (statistics.median(values), min(values), max(values))


print("| FDTD-2D | timer s | x native | wall s | x native |")
print("|---|---|---|---|---|")
for config in ("native", "new", "old", "default"):
    print("| %s | %s | %.2f | %s | %.2f |" % (
        LABELS[config], cell(timer[config]),
        statistics.median(timer["native"]) / statistics.median(timer[config]), cell(wall[config]),
        statistics.median(wall["native"]) / statistics.median(wall[config])))
print("\nruns that did not exit 0: %d" % len(failed))
