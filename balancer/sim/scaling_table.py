#!/usr/bin/python3
"""Markdown table from the CSV of `libsplit-balancer-sim --scaling`.

    balancer/sim/scaling_table.py scaling.csv > table.md

One row per case, the strategies side by side. Columns per adaptive strategy:
- conv: launches until the true makespan is within 5% of the optimum and stays there for 5
  balancing launches ("never": not before the run's end);
- in 5%: the share of steady-state launches (probes included) within 5% of the optimum;
- /opt, /ideal: mean makespan over the optimum (whole work-groups) and over the ideal
  1 / sum(1 / T_i) (divisible work, no fixed costs);
- speedup: one GPU's time over the makespan, summed over the steady state; eff: speedup over the
  devices' capacity in GPUs (a 30%-slower GPU counts 0.7, the CPU 0.05);
- chg/probes: split changes and probe launches after conv; active: devices with work-groups at
  the last balancing launch.
"""
import csv
import sys
from collections import OrderedDict

ADAPTIVE = ["fixedpoint", "broyden"]
PER_STRATEGY = ["conv", "in 5%", "/opt", "/ideal", "speedup", "eff", "chg/probes", "active"]


def cells(row):
    return [
        row["converge"],
        f"{100 * float(row['within5_steady']):.0f}%",
        f"{float(row['mean_over_opt']):.3f}",
        f"{float(row['mean_over_ideal']):.3f}",
        f"{float(row['speedup']):.2f}",
        f"{float(row['efficiency']):.3f}",
        f"{row['changes_after']}/{row['probes_after']}",
        row["active_end"],
    ]


def table(path):
    rows = list(csv.DictReader(open(path)))
    cases = OrderedDict()
    for row in rows:
        cases.setdefault(row["case"], {})[row["strategy"]] = row
    first = rows[0]
    lines = [
        f"Simulated, {first['launches']} launches per run, steady state from launch "
        f"{first['steady_from']}; capacity in GPUs in brackets after the devices.",
        "",
    ]
    head = ["case", "devices", "groups", "first split", "uniform speedup"]
    for strategy in ADAPTIVE:
        head += [f"{strategy} {c}" if c == "conv" else c for c in PER_STRATEGY]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, by_strategy in cases.items():
        any_row = next(iter(by_strategy.values()))
        line = [
            name,
            f"{any_row['devices']} ({float(any_row['capacity']):.2f})",
            any_row["groups"],
            any_row["first_split"],
            f"{float(by_strategy['uniform']['speedup']):.2f}" if "uniform" in by_strategy else "",
        ]
        for strategy in ADAPTIVE:
            line += cells(by_strategy[strategy]) if strategy in by_strategy else [""] * len(PER_STRATEGY)
        lines.append("| " + " | ".join(line) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: scaling_table.py SCALING_CSV > table.md")
    sys.stdout.write(table(sys.argv[1]))
