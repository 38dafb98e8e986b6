#!/usr/bin/env python3
"""Where an app's main thread spends its time on the CPU, call by call: perf's CPU-clock samples
of the thread summed by the OpenCL call it was in and the innermost libsplit function
(natively, the app's own frame), as offcpu.py keys its waits, and by the library the sample
fell in. A driver that spins while it waits for its device (NVIDIA's blocking calls) keeps the
thread on the CPU: its waits show here, not in offcpu.py.

  perf record -e cpu-clock -F 20000 --call-graph dwarf,16384 -o on.data -- env LD_PRELOAD=... APP
  perf script -i on.data -F comm,pid,tid,time,period,ip,sym,dso | bench/tools/oncpu.py --comm APP

The other threads of the app's process are totalled by name.
"""
import argparse
import re
import sys
from collections import defaultdict

from offcpu import call_key, records

SAMPLE = re.compile(r"^\s*(.+?)\s+(\d+)/(\d+)\s+([\d.]+):\s+(\d+)\s*(?:\S+:)?\s*$")


def parse(lines):
    """Yields (comm, pid, tid, period in ns, frames) per sample."""
    for match, frames in records(lines, SAMPLE):
        comm, pid, tid, _, period = match.groups()
        yield comm, int(pid), int(tid), int(period), frames


def library(frames):
    """The library the sample fell in (its innermost frame's)."""
    dso = next((dso for _, dso in frames if dso != "inlined"), "(no stack)")
    return dso.rsplit("/", 1)[-1] if not dso.startswith("[") else dso


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--comm", required=True, help="the app's process name (15 characters)")
    parser.add_argument("--top", type=int, default=15, help="lines to print (default 15)")
    args = parser.parse_args()
    by_call = defaultdict(float)
    by_library = defaultdict(float)
    others = defaultdict(float)
    main_pid = None
    for comm, pid, tid, period, frames in parse(sys.stdin):
        if main_pid is None and pid == tid and comm == args.comm[:15]:
            main_pid = pid
        if pid != main_pid:
            continue
        seconds = period * 1e-9
        if tid != pid:
            others[comm] += seconds
            continue
        by_call[call_key(frames)] += seconds
        by_library[library(frames)] += seconds
    total = sum(by_call.values())
    print(f"main thread on the CPU: {total * 1e3:.3f} ms")
    print(f"{'ms':>9} {'share':>6}  OpenCL call > where")
    for (api, inner), seconds in sorted(by_call.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{seconds * 1e3:9.3f} {seconds / total:6.1%}  {api} > {inner}")
    print("by library:")
    for name, seconds in sorted(by_library.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{seconds * 1e3:9.3f} {seconds / total:6.1%}  {name}")
    if others:
        print("the process's other threads on the CPU:")
        for name, seconds in sorted(others.items(), key=lambda kv: -kv[1]):
            print(f"{seconds * 1e3:9.3f}  {name}")


if __name__ == "__main__":
    main()
