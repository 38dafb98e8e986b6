#!/usr/bin/python3
"""Medians of bench/launch_overhead lines grouped by configuration and options.

    bench/results/overhead_medians.py RUN_DIR     prints a Markdown table from RUN_DIR/overhead.txt

Each line of overhead.txt reads '<configuration> <options>: <launch_overhead's output>', or
'round <n> [<options>] <configuration>: <launch_overhead's output>' (rotated rounds); the figure
taken is its host time per launch in microseconds.
"""
import collections
import re
import statistics
import sys
from pathlib import Path

LINE = re.compile(r"(\w+) (.*?): .*sync [\w-]+: ([\d.]+) us per launch")
ROUND_LINE = re.compile(
    r"round \d+ (?:(.*?) )?(\w+): launch_overhead: .*sync [\w-]+: ([\d.]+) us per launch")


def main(run_dir: Path) -> None:
    times = collections.defaultdict(list)
    configs, options = [], []
    for line in open(run_dir / "overhead.txt"):
        rotated = ROUND_LINE.match(line)
        match = rotated or LINE.match(line)
        if not match:
            continue
        if rotated:
            option, config = rotated.group(1) or "", rotated.group(2)
        else:
            config, option = match.group(1), match.group(2)
        micros = float(match.group(3))
        configs += [config] if config not in configs else []
        options += [option] if option not in options else []
        times[(option, config)].append(micros)
    print("host time per launch, us, medians of the rounds in overhead.txt\n")
    print("| launch_overhead options | " + " | ".join(configs) + " |")
    print("|---|" + "---|" * len(configs))
    for option in options:
        cells = ["%.2f" % statistics.median(times[(option, c)]) if times[(option, c)] else "?"
                 for c in configs]
        print("| `%s` | %s |" % (option, " | ".join(cells)))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
