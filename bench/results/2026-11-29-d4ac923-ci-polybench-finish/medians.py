#!/usr/bin/python3
"""Medians of timing.log (timing.sh's rounds): the app's timer ("GPU Time") and the process wall
time per app and configuration, with the fastest and slowest run; ratios native / configuration.

    medians.py timing.log > table.md
"""
import collections
import re
import statistics
import sys

LINE = re.compile(r"(\d+) (\w+) (\S+) \S+ rc=(\d+) wall=([\d.]+) gpu=([\d.]+)")
timer, wall, failed, apps = collections.defaultdict(list), collections.defaultdict(list), [], []
for line in open(sys.argv[1]):
    match = LINE.match(line)
    if not match:
        continue
    _, config, app, rc, seconds, gpu = match.groups()
    if rc != "0":
        failed.append(line.strip())
    apps += [app] if app not in apps else []
    timer[(app, config)].append(float(gpu))
    wall[(app, config)].append(float(seconds))


def cell(values):
    return "%.4g (%.3g-%.3g)" % (statistics.median(values), min(values), max(values))


print("| app | native timer s | new timer s | x native | 5b3c710 timer s | x native "
      "| native wall s | new wall s | x native | 5b3c710 wall s | x native |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for app in apps:
    row = [app, cell(timer[(app, "native")])]
    for config in ("new", "old"):
        row += [cell(timer[(app, config)]),
                "%.2f" % (statistics.median(timer[(app, "native")]) /
                          statistics.median(timer[(app, config)]))]
    row.append(cell(wall[(app, "native")]))
    for config in ("new", "old"):
        row += [cell(wall[(app, config)]),
                "%.2f" % (statistics.median(wall[(app, "native")]) /
                          statistics.median(wall[(app, config)]))]
    print("| " + " | ".join(row) + " |")
print("\nruns that did not exit 0: %d" % len(failed))
for line in failed:
    print("- " + line)
