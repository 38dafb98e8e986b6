#!/usr/bin/env python3
import re, statistics, collections, subprocess, os
R='/work/sweep/polybench/results'; H='/work/sweep/polybench/harness'
apps=[l.split() for l in open(H+'/apps.txt')]
sizes={l.split()[0]:' '.join(l.split()[1:]) for l in open(H+'/sizes.txt')}
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in ('timing.log','timing3.log','timing2.log'):
  for l in open(f'{R}/{f}'):
    m=re.match(r'(\S+) [tu]_(native|default)\d rc=(\d+) wall=([\d.]+) gpu=([\d.]+)', l)
    if m: d[m[1]][m[2]].append((float(m[5]),float(m[4])))
def chk(a,c):
    s=open(f'{R}/{a}/{c}.stdout').read(); rc=open(f'{R}/{a}/{c}.rc').read().strip()
    m=re.search(r'(Percent: |misses: )(\d+)',s); return f"rc={rc},mism={m.group(2) if m else '?'}"
def ident(a,c):
    o=subprocess.run([H+'/cmp.py',a,c],capture_output=True,text=True).stdout.split('\n')[0]
    return o.split(': ')[1]
def summ(a,c):
    out=[]
    for l in open(f'{R}/{a}/{c}.stderr'):
        m=re.match(r'libsplit:\s+(\S+)\s+(\d+) launches\s+(\d+) split\s+(\d+) on 2\+',l)
        if m: out.append(f"{m[1]} {m[4]}/{m[2]}")
    return '; '.join(out)
print("| app | sizes | native check (rc, mismatches) | default identical? | always identical? | native timer/wall (median) | default timer/wall (median) | n | default summary: on-2+/launches | always: on-2+/launches |")
print("|---|---|---|---|---|---|---|---|---|---|")
for a,dir,name in apps:
    n,f=d[a]['native'],d[a]['default']
    ng=statistics.median(x[0] for x in n); nw=statistics.median(x[1] for x in n); fg=statistics.median(x[0] for x in f); fw=statistics.median(x[1] for x in f)
    print(f"| {a} | {sizes.get(a,'default')} | {chk(a,'native')} | {ident(a,'default')} ({chk(a,'default')}) | {ident(a,'always')} ({chk(a,'always')}) | {ng:.4f} / {nw:.3f} | {fg:.4f} / {fw:.3f} (x{ng/fg:.2f} / x{nw/fw:.2f}) | {len(n)} | {summ(a,'summary')} | {summ(a,'always_sum')} |")
