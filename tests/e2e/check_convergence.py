#!/usr/bin/python3
"""Checks a libsplit trace: the balancer converged, and over the last launches that balanced
(probes aside) the devices finished within TOLERANCE of each other (median spread).

    check_convergence.py TRACE [TOLERANCE=0.10] [LAST=10]
"""
import json
import statistics
import sys

path = sys.argv[1]
tolerance = float(sys.argv[2]) if len(sys.argv) > 2 else 0.10
last = int(sys.argv[3]) if len(sys.argv) > 3 else 10
records = [json.loads(line) for line in open(path) if line.strip()]
balanced = [r for r in records
            if r.get("split") and r.get("purpose") == "balance" and len(r["devices"]) >= 2]
if len(balanced) < last:
    sys.exit(f"only {len(balanced)} balancing launches with two or more devices in {path}")
spreads = []
for r in balanced[-last:]:
    times = [d["kernel_s"] + d["transfer_s"] for d in r["devices"]]
    spreads.append((max(times) - min(times)) / max(times))
median = statistics.median(spreads)
converged = any(r["balancer"]["converged"] for r in records[-last:])
shares = ", ".join(f'{d["name"].split("-")[0]} {d["share"]:.2f}' for d in balanced[-1]["devices"])
print(f"last {last} balancing launches: median spread {median:.3f} "
      f"(tolerance {tolerance}), converged {converged}, final shares {shares}")
sys.exit(0 if median <= tolerance and converged else 1)
