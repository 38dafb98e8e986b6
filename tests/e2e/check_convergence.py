#!/usr/bin/python3
"""Checks a libsplit trace written by an iterative app (one kernel).

    check_convergence.py settles-on TRACE NAME=SHARE,... [BY=6]
        For a run under LIBSPLIT_SIMULATED_SHARES (the same NAME=SHARE list; its times are the
        simulated ones, without noise): from launch BY on, every balancing launch gives each
        device whose name contains NAME its SHARE of the work-groups, to the nearest group,
        and the balancer ends converged.

    check_convergence.py not-slower TRACE [TOLERANCE=0.02] [LAST=10]
        Steady state is not slower than the best single device: the median makespan of the last
        LAST launches is at most (1 + TOLERANCE) times the median time of the fastest device
        alone, measured by the balancer's single-device probes or by launches it ran alone.

    check_convergence.py overlap TRACE [RATIO=0.8] [LAST=10]
        The devices of a held split run at the same time: over the last LAST launches of a held
        split on two or more devices, the median of makespan / (sum of the devices' kernel
        times) is at most RATIO (1.0 when they run one after the other).

    check_convergence.py whole-on TRACE NAME [LAST=4]
        The last LAST launches ran unsplit, whole on the device whose name contains NAME.

    check_convergence.py moved-at-most TRACE BYTES
        The launches moved at most BYTES in all (every device's bytes in and out), and at least
        one ran on two devices.
"""
import json
import statistics
import sys

mode, path = sys.argv[1], sys.argv[2]
records = [json.loads(line) for line in open(path) if line.strip()]
records = [r for r in records if r.get("split") or r.get("devices")]


def short(name):
    return name.split("-")[0]


if mode == "settles-on":
    wanted = {name: float(share) for name, share in
              (item.split("=") for item in sys.argv[3].split(","))}
    by = int(sys.argv[4]) if len(sys.argv) > 4 else 6
    balanced = [r for r in records if r.get("split") and r.get("purpose") == "balance"]
    late = [r for r in balanced if r["launch"] >= by]
    if not late:
        sys.exit(f"no balancing launch from launch {by} on in {path}")
    off = []
    for r in late:
        total = sum(d["groups"] for d in r["devices"])
        for name, share in wanted.items():
            groups = sum(d["groups"] for d in r["devices"] if name in d["name"])
            if abs(groups - share * total) > 1:
                off.append(f'launch {r["launch"]}: {name} {groups} of {total} groups')
    final = records[-1]["balancer"]
    shares = ", ".join(f'{short(d["name"])} {d["share"]:.3f}' for d in late[-1]["devices"])
    print(f"{len(late)} balancing launches from launch {by} on; final shares {shares}; "
          f"final state {final['state']}; off the simulated shares: {off[:3] or 'none'}")
    sys.exit(0 if not off and final["converged"] else 1)

if mode == "not-slower":
    tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 0.02
    last = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    alone = {}
    for r in records:
        if len(r["devices"]) == 1 and r["devices"][0]["groups"] > 0:
            d = r["devices"][0]
            alone.setdefault(d["name"], []).append(d["kernel_s"] + d["transfer_s"])
    if not alone:
        sys.exit(f"no launch ran on one device alone in {path}: nothing to compare with")
    best_name, best = min(((n, statistics.median(t)) for n, t in alone.items()),
                          key=lambda item: item[1])
    tail = [r for r in records if r.get("purpose", "balance") == "balance"][-last:]
    steady = statistics.median(r["makespan_s"] for r in tail)
    devices = sorted({short(d["name"]) for r in tail for d in r["devices"]})
    print(f"last {last} launches: median makespan {steady * 1e3:.2f} ms on {'+'.join(devices)}; "
          f"fastest alone: {short(best_name)} {best * 1e3:.2f} ms (median of {len(alone[best_name])}); "
          f"ratio {steady / best:.3f} (tolerance {1 + tolerance:.2f}), "
          f"final state {records[-1]['balancer']['state']}")
    sys.exit(0 if steady <= (1 + tolerance) * best else 1)

if mode == "overlap":
    ratio_limit = float(sys.argv[3]) if len(sys.argv) > 3 else 0.8
    last = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    held = [r for r in records
            if r.get("split") and len(r["devices"]) >= 2 and r["balancer"]["converged"]]
    if len(held) < last:
        sys.exit(f"only {len(held)} launches of a held split in {path}")
    ratios = [r["makespan_s"] / sum(d["kernel_s"] for d in r["devices"]) for r in held[-last:]]
    median = statistics.median(ratios)
    print(f"last {last} held split launches: median makespan / summed kernel times {median:.3f} "
          f"(at most {ratio_limit})")
    sys.exit(0 if median <= ratio_limit else 1)

if mode == "whole-on":
    name = sys.argv[3]
    last = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    tail = records[-last:]
    where = [r["devices"][0]["name"] if not r.get("split") and len(r["devices"]) == 1
             else "split" for r in tail]
    print(f"last {last} launches ran on: {', '.join(short(w) for w in where)} (want {name})")
    sys.exit(0 if len(tail) == last and all(name in w for w in where) else 1)

if mode == "moved-at-most":
    limit = int(sys.argv[3])
    split = [r for r in records if r.get("split")]
    moved = sum(d.get("bytes_in", 0) + d.get("bytes_out", 0)
                for r in records for d in r["devices"])
    shared = sum(1 for r in split if len(r["devices"]) >= 2)
    print(f"{len(records)} launches ({shared} on two devices or more) moved {moved} bytes "
          f"(at most {limit}: {moved / limit:.2f} of it)")
    sys.exit(0 if shared and moved <= limit else 1)

sys.exit(f"unknown mode {mode}: settles-on, not-slower, overlap, whole-on or moved-at-most")
