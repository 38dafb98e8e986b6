#!/usr/bin/env python3
"""Medians of lu-runs.csv: per app, split mode and library, the app's timer and the bytes moved
against the matrix (min-max over the rounds)."""
import collections
import csv
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))
rows = list(csv.DictReader(open(os.path.join(here, "lu-runs.csv"))))
groups = collections.defaultdict(list)
for r in rows:
    groups[(r["app"], r["args"], r["split"], r["library"])].append(r)
native = {(k[0], k[1]): statistics.median(float(r["app_s"]) for r in v)
          for k, v in groups.items() if k[3] == "native"}
print("| app | arguments | LIBSPLIT_SPLIT | library | app s (median) | x native | bytes moved / matrix (min-max) |")
print("|---|---|---|---|---|---|---|")
for (app, args, split, lib), v in groups.items():
    t = statistics.median(float(r["app_s"]) for r in v)
    m = [int(r["bytes_moved"]) / int(r["matrix_bytes"]) for r in v]
    print(f"| {app} | `{args}` | {split} | {lib} | {t:.4f} | {native[(app, args)] / t:.2f} | "
          f"{min(m):.1f}-{max(m):.1f} |")
