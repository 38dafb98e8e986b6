#!/bin/bash
# usage: ab.sh ROUNDS STEPS config...; config = native | lib | VAR=VAL,VAR2=VAL@lib
R=$1; ST=$2; shift 2
export LIBSPLIT_CC=/work/main/build/bin/libsplit-cc POCL_DEVICES='basic pthread' LIBSPLIT_TUNING=off
A=${APP:-/work/main/build/bench/apps/cfd}
ARGS=${APPARGS:---device 0:1 --n 4096 --steps $ST}
for i in $(seq $R); do
  line=""
  for L in "$@"; do
    if [ "$L" = native ]; then t=$($A $ARGS | grep -o ' in [0-9.]*' | cut -c5-)
    else
      envs=""; lib=$L
      case "$L" in *@*) envs=${L%@*}; lib=${L#*@};; esac
      t=$(env $(echo $envs | tr ',' ' ') LD_PRELOAD=$lib $A $ARGS | grep -o ' in [0-9.]*' | cut -c5-)
    fi
    line="$line $t"
  done
  echo $line
done > "${RAW:-/tmp/ab.txt}"
python3 - "$@" <<'PY'
import statistics as st, sys
names=sys.argv[1:]
rows=[list(map(float,l.split())) for l in open(__import__("os").environ.get("RAW","/tmp/ab.txt")) if len(l.split())==len(names)]
cols=list(zip(*rows))
base=st.median(cols[0])
for n,c in zip(names,cols):
    print(f"{n[-60:]:>60} median {st.median(c)*1e3:.3f} ms  min {min(c)*1e3:.3f}  x native {base/st.median(c):.3f}")
PY
