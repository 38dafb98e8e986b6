#!/usr/bin/python3
"""Medians of timing.log (timing.sh's rounds: round config app rc wall timer) per app and
configuration, fastest and slowest in brackets; ratios native / configuration.

    medians.py timing.log > table.md
"""
import collections
import statistics
import sys

timer, wall, apps, failed = collections.defaultdict(list), collections.defaultdict(list), [], 0
for line in open(sys.argv[1]):
    fields = line.split()
    if len(fields) < 6:
        continue
    _, config, app, rc, seconds, ms = fields[:6]
    failed += rc != "0"
    apps += [app] if app not in apps else []
    timer[(app, config)].append(float(ms) / 1000.0)
    wall[(app, config)].append(float(seconds))


def cell(values):
    return "%.4g (%.3g-%.3g)" % (statistics.median(values), min(values), max(values))


def ratio(table, app, config):
    return "%.2f" % (statistics.median(table[(app, "native")]) / statistics.median(table[(app, config)]))


print("| app | native timer s | 5a2f944 timer s | x native | 5b3c710 timer s | x native "
      "| native wall s | 5a2f944 wall s | x native | 5b3c710 wall s | x native |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for app in apps:
    row = [app, cell(timer[(app, "native")])]
    for config in ("new", "old"):
        row += [cell(timer[(app, config)]), ratio(timer, app, config)]
    row.append(cell(wall[(app, "native")]))
    for config in ("new", "old"):
        row += [cell(wall[(app, config)]), ratio(wall, app, config)]
    print("| " + " | ".join(row) + " |")
print("\nruns that did not exit 0: %d" % failed)
