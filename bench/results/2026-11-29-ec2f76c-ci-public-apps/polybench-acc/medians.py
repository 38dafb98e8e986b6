#!/usr/bin/env python3
import re, statistics, collections, sys
d = collections.defaultdict(lambda: collections.defaultdict(list))
for l in open('/work/sweep/polybench/results/timing.log'):
    m = re.match(r'(\S+) t_(native|default)\d rc=(\d+) wall=([\d.]+) gpu=([\d.]+)', l)
    if m: d[m[1]][m[2]].append((float(m[5]), float(m[4])))
print(f"{'app':10} {'nat_gpu':>8} {'nat_wall':>8} {'def_gpu':>8} {'def_wall':>8} {'gpu_x':>6} {'wall_x':>6}  (medians of 3; x = native/default, <0.9 = default slower)")
for a in d:
    n, f = d[a]['native'], d[a]['default']
    if not n or not f: continue
    ng = statistics.median(x[0] for x in n); nw = statistics.median(x[1] for x in n)
    fg = statistics.median(x[0] for x in f); fw = statistics.median(x[1] for x in f)
    print(f"{a:10} {ng:8.4f} {nw:8.3f} {fg:8.4f} {fw:8.3f} {ng/fg:6.2f} {nw/fw:6.2f}")
