#!/usr/bin/python3
"""A Markdown table of interleaved rounds from their raw CSV (no header line): one row per run,
ROUND,[APP,]CONFIG,SECONDS (the app's own timer). Per app, each configuration's median, its
ratio to native's (native / configuration: above 1 is faster than native) and its fastest and
slowest run, to judge a gap against the runs' own spread. --unit us: the
values are microseconds (a host cost per launch), not seconds.

    bench/results/rounds_table.py [--unit us] ROUNDS.csv > table.md
"""
import csv
import statistics
import sys
from collections import OrderedDict


def main(path: str, unit: str = "s") -> None:
    runs = OrderedDict()
    for row in csv.reader(open(path)):
        if not row or not row[-1]:
            continue
        app = ",".join(row[1:-2]) or "app"
        runs.setdefault(app, OrderedDict()).setdefault(row[-2], []).append(float(row[-1]))
    print(f"| app | configuration | median {unit} | x native | fastest - slowest {unit} | rounds |")
    print("|---|---|---|---|---|---|")

    def shown(value):
        return f"{value:.2f}" if unit == "us" else f"{value:.4f}"

    for app, configs in runs.items():
        native = statistics.median(configs["native"]) if "native" in configs else None
        for config, seconds in configs.items():
            median = statistics.median(seconds)
            ratio = f"{native / median:.2f}" if native else ""
            spread = f"{shown(min(seconds))} - {shown(max(seconds))}"
            print(f"| {app} | {config} | {shown(median)} | {ratio} | {spread} | {len(seconds)} |")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--unit" and sys.argv[2] in ("s", "us"):
        main(sys.argv[3], sys.argv[2])
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit("usage: rounds_table.py [--unit s|us] ROUNDS.csv")
