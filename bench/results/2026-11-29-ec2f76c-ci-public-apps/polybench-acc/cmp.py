#!/usr/bin/env python3
# usage: cmp.py APP CFG  -> compares results/APP/dump/native.* with CFG.* (float32 arrays)
import sys, os, glob, struct, math
app, cfg = sys.argv[1], sys.argv[2]
d = f"/work/sweep/polybench/results/{app}/dump"
nat = sorted(glob.glob(f"{d}/native.*.bin"))
allsame = True; lines = []
if not nat: print(f"{app} {cfg}: NO NATIVE DUMPS"); sys.exit(2)
for n in nat:
    suf = n[len(f"{d}/native."):]
    o = f"{d}/{cfg}.{suf}"
    if not os.path.exists(o):
        lines.append(f"  {suf}: MISSING in {cfg}"); allsame = False; continue
    a = open(n,'rb').read(); b = open(o,'rb').read()
    if a == b: continue
    allsame = False
    if len(a) != len(b):
        lines.append(f"  {suf}: size differs {len(a)} vs {len(b)}"); continue
    cnt = len(a)//4
    fa = struct.unpack(f"{cnt}f", a); fb = struct.unpack(f"{cnt}f", b)
    ndiff = 0; mabs = 0.0; mrel = 0.0; first = None; nnan = 0
    for i,(x,y) in enumerate(zip(fa,fb)):
        if x != y and not (math.isnan(x) and math.isnan(y)):
            ndiff += 1
            if first is None: first = (i, x, y)
            if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y): nnan += 1; continue
            ad = abs(x-y); mabs = max(mabs, ad)
            den = max(abs(x), abs(y))
            if den > 0: mrel = max(mrel, ad/den)
    lines.append(f"  {suf}: {ndiff}/{cnt} floats differ, max_abs={mabs:.6g} max_rel={mrel:.6g} nan/inf_diffs={nnan} first(idx,native,{cfg})={first}")
print(f"{app} {cfg}: " + ("IDENTICAL" if allsame else "DIFFERENT") + f" ({len(nat)} files)")
for l in lines: print(l)
