#!/usr/bin/python3
"""Markdown tables of bench/tools/startup_phases run in rounds, from their raw CSV (header
round,config,wall_ms,phase,seconds: one row per phase of each run, wall_ms the process's wall
time, the same on each of a run's rows). First each configuration's median wall time, time in
main (the phase "total"), time outside it (wall less total: loading before main, exit after it)
and the phases asked for; then, per pair of configurations (each against the first, CONFIG, and
each against the one before it), the median of the differences within a round with
their quartiles: a round runs every configuration once, close in time, so its differences carry
less of the machine's drift than the difference of two medians.

    bench/results/startup_ab.py [--first CONFIG] PHASES.csv [PHASE ...] > table.md
PHASE defaults to platforms and context; "none" shows no phase beyond the time in main. CONFIG
(default native) is the configuration the others are compared with first.
"""
import csv
import statistics
import sys
from collections import OrderedDict


def read(path: str):
    runs = OrderedDict()  # config -> round -> {quantity: ms}
    for row in csv.DictReader(open(path)):
        run = runs.setdefault(row["config"], OrderedDict()).setdefault(row["round"], {})
        run["wall"] = float(row["wall_ms"])
        run[row["phase"]] = float(row["seconds"]) * 1000.0
    for rounds in runs.values():
        for run in rounds.values():
            if "total" in run:
                run["outside main"] = run["wall"] - run["total"]
    return runs


def quartiles(values):
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def main(path: str, phases, first: str = "native") -> None:
    runs = read(path)
    # The reference first, the rest in the order they first ran.
    configs = sorted(runs, key=lambda c: c != first)
    runs = OrderedDict((c, runs[c]) for c in configs)
    quantities = ["wall", "total", "outside main"] + list(phases)
    names = {"total": "in main"}
    header = " | ".join(names.get(q, q) + " ms" for q in quantities)
    print(f"| configuration | rounds | {header} |")
    print("|---|---|" + "---|" * len(quantities))
    for config, rounds in runs.items():
        cells = []
        for q in quantities:
            values = [run[q] for run in rounds.values() if q in run]
            cells.append(f"{statistics.median(values):.1f}" if values else "-")
        print(f"| {config} | {len(rounds)} | " + " | ".join(cells) + " |")
    pairs = [(c, configs[0]) for c in configs[1:]]
    pairs += [(configs[i], configs[i - 1]) for i in range(2, len(configs))]
    print()
    print("Differences within a round: median [first quartile, third quartile], ms.")
    print()
    header = " | ".join(names.get(q, q) for q in quantities)
    print(f"| configuration | against | rounds | {header} |")
    print("|---|---|---|" + "---|" * len(quantities))
    for config, against in pairs:
        common = [r for r in runs[config] if r in runs[against]]
        cells = []
        for q in quantities:
            diffs = sorted(runs[config][r][q] - runs[against][r][q] for r in common
                           if q in runs[config][r] and q in runs[against][r])
            if not diffs:
                cells.append("-")
                continue
            low, high = quartiles(diffs)
            cells.append(f"{statistics.median(diffs):+.1f} [{low:+.1f}, {high:+.1f}]")
        print(f"| {config} | {against} | {len(common)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    args = sys.argv[1:]
    first = "native"
    if len(args) >= 2 and args[0] == "--first":
        first, args = args[1], args[2:]
    if not args:
        sys.exit("usage: startup_ab.py [--first CONFIG] PHASES.csv [PHASE ...]")
    phases = args[1:] or ["platforms", "context"]
    main(args[0], [] if phases == ["none"] else phases, first)
