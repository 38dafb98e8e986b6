#!/usr/bin/python3
"""Medians of a timing log of public apps run outside the repository, one line a run: per app and
configuration, the app's timer and the process's wall time, fastest and slowest in brackets, and
ratios native / configuration (above 1: faster than native).

A line is either PolyBench-ACC's harness line (run.sh) after the round and the configuration:
    ROUND CONFIG APP TAG rc=RC wall=SECONDS gpu=SECONDS ...
or plain fields, the timer in milliseconds (Rodinia's "Total:"):
    ROUND CONFIG APP RC WALL_SECONDS TIMER_MS
Anything else is skipped.

    timing_medians.py timing.log [CONFIG=LABEL ...] > table.md

The configurations named (after native, which must be there) are the table's, in that order, with
their labels in its header; without any, every configuration of the log under its own name.
"""
import collections
import re
import statistics
import sys

HARNESS = re.compile(r"(\d+) (\S+) (\S+) \S+ rc=(-?\d+) wall=([\d.]+) gpu=([\d.]+)")
PLAIN = re.compile(r"(\d+) (\S+) (\S+) (-?\d+) ([\d.]+) ([\d.]+)\s*$")


def read(path):
    timer, wall = collections.defaultdict(list), collections.defaultdict(list)
    apps, configs, failed = [], [], []
    for line in open(path):
        match = HARNESS.match(line)
        scale = 1.0
        if not match:
            match = PLAIN.match(line)
            scale = 1e-3
        if not match:
            continue
        _, config, app, rc, seconds, timed = match.groups()
        if rc != "0":
            failed.append(line.strip())
        apps += [app] if app not in apps else []
        configs += [config] if config not in configs else []
        timer[(app, config)].append(float(timed) * scale)
        wall[(app, config)].append(float(seconds))
    return timer, wall, apps, configs, failed


def cell(values):
    return "%.4g (%.3g-%.3g)" % (statistics.median(values), min(values), max(values))


def ratio(table, app, config):
    return "%.2f" % (statistics.median(table[(app, "native")]) /
                     statistics.median(table[(app, config)]))


def main(path, named):
    timer, wall, apps, configs, failed = read(path)
    labels = dict(pair.split("=", 1) for pair in named)
    shown = list(labels) if labels else [c for c in configs if c != "native"]
    labels = {config: labels.get(config, config) for config in shown}
    header = ["app", "native timer s"]
    for config in shown:
        header += ["%s timer s" % labels[config], "x native"]
    header.append("native wall s")
    for config in shown:
        header += ["%s wall s" % labels[config], "x native"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for app in apps:
        row = [app, cell(timer[(app, "native")])]
        for config in shown:
            row += [cell(timer[(app, config)]), ratio(timer, app, config)]
        row.append(cell(wall[(app, "native")]))
        for config in shown:
            row += [cell(wall[(app, config)]), ratio(wall, app, config)]
        print("| " + " | ".join(row) + " |")
    print("\nruns that did not exit 0: %d" % len(failed))
    for line in failed:
        print("- " + line)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
