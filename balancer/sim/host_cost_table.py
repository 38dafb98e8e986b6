#!/usr/bin/python3
"""Markdown table from the CSV of `libsplit-balancer-sim --host-cost`.

    balancer/sim/host_cost_table.py host-cost.csv > table.md

One row per device count, the strategies side by side: microseconds of host time per launch
(the balancer's propose and observe, with the simulator's own device model), and that time
over the two-device time divided by the device count over two (1.00: it grows linearly).
"""
import csv
import sys
from collections import OrderedDict


def main() -> int:
    rows = list(csv.DictReader(open(sys.argv[1])))
    strategies = list(OrderedDict.fromkeys(r["strategy"] for r in rows))
    counts = sorted({int(r["devices"]) for r in rows})
    micros = {(r["strategy"], int(r["devices"])): float(r["us_per_launch"]) for r in rows}
    head = ["devices"] + [f"{s} {c}" for s in strategies for c in ("us/launch", "vs linear")]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for n in counts:
        cells = [str(n)]
        for s in strategies:
            base = micros[(s, counts[0])]
            cells += [f"{micros[(s, n)]:.1f}", f"{micros[(s, n)] / (base * n / counts[0]):.2f}"]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
