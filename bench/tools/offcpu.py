#!/usr/bin/env python3
"""Where an app's main thread waits off the CPU, call by call: the time between each time it
left the CPU to sleep (a futex, a poll, a driver's wait) and its next return, summed by the
OpenCL call it was in and the innermost libsplit function (natively, the app's own frame). It
reads `perf script` output of a system-wide recording of the scheduler's switches (a recording
of the app's threads alone has their switches out, not back in), with their call stacks:

  perf record -a -e sched:sched_switch --call-graph dwarf,16384 -o off.data -- env LD_PRELOAD=... APP
  perf script -i off.data -F pid,tid,time,trace,ip,sym,dso | bench/tools/offcpu.py --comm APP

(a tracepoint filter on the app's name, or an app stripped of its debug information, left the
stacks cut short at the C library.) The main thread is the thread of the first process named
APP whose id is the process's. A thread preempted while runnable (state R) is counted apart: it
did not wait. What a profile of the CPU's samples cannot show (libsplit's code was 0.01-0.02%
of a solver's main-thread samples) is what this totals.
"""
import argparse
import re
import sys
from collections import defaultdict

EVENT = re.compile(
    r"^\s*(\d+)/(\d+)\s+([\d.]+):\s+prev_comm=(.*?) prev_pid=(\d+)\s.*?prev_state=(\S+)\s+==>"
    r"\s+next_comm=.*?next_pid=(\d+)\s")
OPENCL_CALL = re.compile(r"^cl[A-Z]\w*$")
FRAME = re.compile(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$")


def call_key(frames):
    """The OpenCL entry point the app called (the outermost cl* frame) and the innermost frame
    of libsplit under it, else the innermost frame of a user-space library."""
    api = next((sym for sym, dso in reversed(frames)
                if OPENCL_CALL.match(sym) and not dso.startswith("[")), None)
    if api is None:  # natively the loader's entry points may lack symbols: the app's own frame
        app = next((dso for sym, dso in frames if sym == "main"), None)
        api = next((f"(in the app's {sym})" for sym, dso in frames if dso == app),
                   "(no OpenCL call)")
    inner = next((sym for sym, dso in frames
                  if sym.startswith("libsplit::") and "_Function_handler" not in sym), None)
    if inner is None:
        inner = next((f"{sym} ({dso.rsplit('/', 1)[-1]})" for sym, dso in frames
                      if not dso.startswith("[") and dso not in ("inlined",) and "libc.so" not in dso
                      and "ld-linux" not in dso), "(kernel or unknown)")
    return api, inner[:110]


def records(lines, header):
    """Yields (match of header, frames) per record of `perf script` output: a line that header
    matches, then its stack's frames as (symbol, library)."""
    current = None
    for line in lines:
        match = header.match(line)
        if match:
            if current:
                yield current
            current = (match, [])
            continue
        frame = FRAME.match(line)
        if frame and current:
            current[1].append((frame.group(1), frame.group(2)))
    if current:
        yield current


def parse(lines):
    """Yields (pid, tid, time, prev_pid, prev_state, next_pid, frames, prev_comm) per switch."""
    for match, frames in records(lines, EVENT):
        pid, tid, time, comm, prev_pid, state, next_pid = match.groups()
        yield (int(pid), int(tid), float(time), int(prev_pid), state, int(next_pid), frames, comm)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--comm", required=True, help="the app's process name (15 characters)")
    parser.add_argument("--top", type=int, default=15, help="lines to print (default 15)")
    args = parser.parse_args()
    waits = defaultdict(lambda: [0.0, 0])
    preempted = 0.0
    left = None  # (time, state, key) of the main thread's last switch out
    main = None
    for pid, tid, time, prev_pid, state, next_pid, frames, comm in parse(sys.stdin):
        if main is None and pid and pid == tid and comm == args.comm[:15]:
            main = pid
        if prev_pid == main and left is None:
            left = (time, state, call_key(frames))
        elif next_pid == main and left is not None:
            start, was, key = left
            if was.startswith("R"):
                preempted += time - start
            else:
                waits[key][0] += time - start
                waits[key][1] += 1
            left = None
    total = sum(seconds for seconds, _ in waits.values())
    print(f"main thread off the CPU, waiting: {total * 1e3:.3f} ms in {sum(n for _, n in waits.values())}"
          f" sleeps; preempted while runnable: {preempted * 1e3:.3f} ms")
    print(f"{'ms':>9} {'sleeps':>7} {'us each':>8}  OpenCL call > where")
    for (api, inner), (seconds, count) in sorted(waits.items(), key=lambda kv: -kv[1][0])[:args.top]:
        print(f"{seconds * 1e3:9.3f} {count:7d} {seconds / count * 1e6:8.1f}  {api} > {inner}")


if __name__ == "__main__":
    main()
