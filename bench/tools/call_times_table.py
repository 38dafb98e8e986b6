#!/usr/bin/python3
"""The tables of bench/tools/call_times_ab.sh's reports: per configuration, the app's timer and,
per OpenCL function, its calls and the median over the runs of the calls' total time and of the
median call, with each configuration's difference from the first one's.

    bench/tools/call_times_table.py OUT_DIR CONFIG...   (the configurations in the order given)

A report is OUT_DIR/r<round>-c<configuration>.txt: the app's timer line, then call_times'
"function calls total-us median-us max-us" lines.
"""
import re
import statistics
import sys
from collections import OrderedDict
from pathlib import Path

TIMER = re.compile(r" in ([0-9.e+-]+) s[;,]")
ROW = re.compile(r"^(cl\w+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)$")


def read_report(path: Path):
    lines = path.read_text().splitlines()
    timer = TIMER.search(lines[0]) if lines else None
    functions = {}
    for line in lines[1:]:
        match = ROW.match(line.strip())
        if match:
            name, calls, total, median, _ = match.groups()
            functions[name] = (int(calls), float(total), float(median))
    return (float(timer.group(1)) if timer else None), functions


def main(out: Path, configs) -> None:
    runs = OrderedDict((i, []) for i in range(1, len(configs) + 1))
    for path in sorted(out.glob("r*-c*.txt")):
        match = re.fullmatch(r"r(\d+)-c(\d+)\.txt", path.name)
        if match and int(match.group(2)) in runs:
            runs[int(match.group(2))].append(read_report(path))
    names = []
    for reports in runs.values():
        for _, functions in reports:
            names += [n for n in functions if n not in names]

    def summary(index):
        reports = runs[index]
        timers = [t for t, _ in reports if t is not None]
        per_function = {}
        for name in names:
            rows = [f[name] for _, f in reports if name in f]
            if rows:
                per_function[name] = (statistics.median(r[0] for r in rows),
                                      statistics.median(r[1] for r in rows),
                                      statistics.median(r[2] for r in rows))
        return (statistics.median(timers) if timers else None), per_function, len(reports)

    first_timer, first_functions, _ = summary(1)
    for index, config in enumerate(configs, start=1):
        timer, functions, count = summary(index)
        print(f"### {config} ({count} runs)\n")
        if timer is not None:
            ratio = f", {first_timer / timer:.2f}x the first" if first_timer and index > 1 else ""
            print(f"app timer median {timer * 1e3:.3f} ms{ratio}\n")
        print("| function | calls | total us | median call us | total - first's us |")
        print("|---|---|---|---|---|")
        for name, (calls, total, median) in functions.items():
            base = first_functions.get(name)
            delta = f"{total - base[1]:+.1f}" if base else "-"
            print(f"| {name} | {calls:g} | {total:.1f} | {median:.2f} | {delta} |")
        print()


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), sys.argv[2:])
