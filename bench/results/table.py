#!/usr/bin/python3
"""Markdown tables from the raw CSVs of bench/gpu/whole_runs.sh (and the CI machine's runs).

    bench/results/table.py RUN_DIR...     prints one table per runs.csv, after its machine.txt

Columns: per app and arguments, the median over the rows of each configuration (one row each
when a run made one) of the app's own timer and of the process wall time, with the fastest and
slowest run in brackets where it ran three times or more (rounds); ratios are native /
configuration, so above 1 means faster than native. A run whose exit status was not 0 is shown
with its status instead of its times. Where the CSV has the bytes each run's launches moved
(moved_bytes), each configuration has a column of their median, in MiB, and where it has the
number of the balancer's probe launches (probe_launches), one of their median.
"""
import csv
import statistics
import sys
from collections import OrderedDict
from pathlib import Path


def table(run_dir: Path) -> str:
    rows = list(csv.DictReader(open(run_dir / "runs.csv")))
    configs = []
    cells = OrderedDict()
    for row in rows:
        key = (row["app"], row["args"].strip('"'))
        config = row["config"]
        if config not in configs:
            configs.append(config)
        cells.setdefault(key, {}).setdefault(config, []).append(row)
    others = [c for c in configs if c != "native"]
    moved = any(r.get("moved_bytes") not in (None, "") for r in rows)
    probes = any(r.get("probe_launches") not in (None, "") for r in rows)
    head = ["app", "arguments", "native app s", "native wall s"]
    for c in others:
        head += [f"{c} app s", f"x native (app)", f"{c} wall s", f"x native (wall)"]
        if moved:
            head.append(f"{c} MiB moved")
        if probes:
            head.append(f"{c} probes")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def median(rs, field):
        values = [float(r[field]) for r in rs if r[field] not in ("", "nan")]
        return statistics.median(values) if values else None

    def spread(rs, field, digits):
        """Where a configuration ran three times or more (rounds): its fastest and slowest run."""
        values = [float(r[field]) for r in rs if r[field] not in ("", "nan")]
        return f" ({min(values):.{digits}g}-{max(values):.{digits}g})" if len(values) >= 3 else ""

    def failed(rs):
        bad = [r["status"] for r in rs if r["status"] != "0"]
        return f"exit {bad[0]}" if bad else None

    for (app, args), by in cells.items():
        native = by.get("native", [])
        n_app, n_wall = median(native, "app_seconds"), median(native, "wall_seconds")
        line = [app, f"`{args}`"]
        nf = failed(native)
        line += ([nf or f"{n_app:.4g}{spread(native, 'app_seconds', 3)}",
                  nf or f"{n_wall:.3g}{spread(native, 'wall_seconds', 3)}"]
                 if n_app else ["?", "?"])
        for c in others:
            rs = by.get(c, [])
            f = failed(rs)
            a, w = median(rs, "app_seconds"), median(rs, "wall_seconds")
            if f or a is None:
                line += [f or "?", "", "", ""] + ([""] if moved else []) + ([""] if probes else [])
                continue
            line += [f"{a:.4g}{spread(rs, 'app_seconds', 3)}", f"{n_app / a:.2f}" if n_app else "",
                     f"{w:.3g}{spread(rs, 'wall_seconds', 3)}" if w else "",
                     f"{n_wall / w:.2f}" if n_wall and w else ""]
            if moved:
                m = median(rs, "moved_bytes")
                line.append(f"{m / 2**20:.1f}" if m is not None else "")
            if probes:
                p = median(rs, "probe_launches")
                line.append(f"{p:.0f}" if p is not None else "")
        lines.append("| " + " | ".join(line) + " |")
    machine = (run_dir / "machine.txt").read_text().strip() if (run_dir / "machine.txt").exists() else ""
    return f"### {run_dir.name}\n\n{machine}\n\n" + "\n".join(lines) + "\n"


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(table(Path(arg)))
