#!/usr/bin/python3
"""A Markdown table of interleaved rounds from their raw CSV (no header line): one row per run,
ROUND,[APP,]CONFIG,SECONDS (the app's own timer). Per app, each configuration's median and its
ratio to native's (native / configuration: above 1 is faster than native).

    bench/results/rounds_table.py ROUNDS.csv > table.md
"""
import csv
import statistics
import sys
from collections import OrderedDict


def main(path: str) -> None:
    runs = OrderedDict()
    for row in csv.reader(open(path)):
        if not row or not row[-1]:
            continue
        app = ",".join(row[1:-2]) or "app"
        runs.setdefault(app, OrderedDict()).setdefault(row[-2], []).append(float(row[-1]))
    print("| app | configuration | median s | x native | rounds |")
    print("|---|---|---|---|---|")
    for app, configs in runs.items():
        native = statistics.median(configs["native"]) if "native" in configs else None
        for config, seconds in configs.items():
            median = statistics.median(seconds)
            ratio = f"{native / median:.2f}" if native else ""
            print(f"| {app} | {config} | {median:.4f} | {ratio} | {len(seconds)} |")


if __name__ == "__main__":
    main(sys.argv[1])
