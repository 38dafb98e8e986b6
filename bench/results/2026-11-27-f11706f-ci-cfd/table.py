#!/usr/bin/env python3
"""Medians of cfd-rounds.csv: cfd --n 4096 --steps 200 on pthread, natively and under libsplit
in several configurations (a column each), interleaved rounds. Usage: table.py [FOLDER] (this
script's folder by default; another folder's cfd-rounds.csv of the same form otherwise)."""
import csv
import os
import statistics
import sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rows = list(csv.DictReader(open(os.path.join(here, "cfd-rounds.csv"))))
names = [k for k in rows[0] if k != "round"]
native = statistics.median(float(r["native_s"]) for r in rows)
print("| configuration | app ms (median) | min | x native |")
print("|---|---|---|---|")
for n in names:
    v = [float(r[n]) for r in rows]
    print(f"| {n[:-2]} | {statistics.median(v) * 1e3:.3f} | {min(v) * 1e3:.3f} | "
          f"{native / statistics.median(v):.3f} |")
