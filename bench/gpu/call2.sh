#!/usr/bin/env bash
# Session 28, call 2 (two H200s): 1000-step stencils' warm runs with the split devices opened
# early (LIBSPLIT_OPEN=queued) or at creation (now); LU 2048 (4,094 launches of about 5 us) in
# rounds: native, default, one GPU only (no split device: the interposition alone) and the
# preload disabled.
set -uo pipefail
source bench/gpu/pack_env.sh
printf '%s\n' "jacobi2d | --n 16384 --iterations 1000" "jacobi2d | --n 8192 --iterations 1000" \
  "fdtd2d | --nx 8192 --ny 8192 --steps 500" > $OUT/list-warm.txt
LIST=$OUT/list-warm.txt CONFIGS="native first@LIBSPLIT_OPEN=queued second@LIBSPLIT_OPEN=queued second@LIBSPLIT_OPEN=queued first@LIBSPLIT_OPEN=now second@LIBSPLIT_OPEN=now" \
  bench/gpu/whole_runs.sh > $OUT/runs-warm.csv 2> $OUT/stderr-warm.txt
cut -d, -f1-6 $OUT/runs-warm.csv
lib=$PWD/build-gpu/lib/libsplit.so
LIBSPLIT_TUNING=off LIBSPLIT_OPEN=now LIBSPLIT_DEBUG=split LIBSPLIT_SUMMARY=1 \
  LD_PRELOAD=$lib build-gpu/bench/apps/jacobi2d --device $gpu --n 16384 --iterations 1000 > $OUT/jacobi2d-1000-now.txt 2>&1
grep -E "PASS|FAIL|^libsplit:   " $OUT/jacobi2d-1000-now.txt | cut -c1-250
grep -vE "running whole is the cheaper|the split is the cheaper|ran work-groups" $OUT/jacobi2d-1000-now.txt | head -30 | cut -c1-250
gzip $OUT/jacobi2d-*.txt
one=$(build-gpu/bin/libsplit --list-devices | awk '$2 == "gpu" {print $1}' | head -1)
for round in 1 2 3 4 5 6 7; do
  for config in native default onegpu disabled; do
    case $config in
    native) env=() ;;
    default) env=(LD_PRELOAD=$lib) ;;
    onegpu) env=(LD_PRELOAD=$lib LIBSPLIT_DEVICES=$one) ;;
    disabled) env=(LD_PRELOAD=$lib LIBSPLIT_DISABLE=1) ;;
    esac
    s=$(env "${env[@]}" LIBSPLIT_TUNING=off build-gpu/bench/apps/lu --device $gpu --n 2048 2>&1 | sed -n 's/.* in \([0-9.e+-]*\) s[;,].*/\1/p' | tail -1)
    echo "$round,$config,$s"
  done
done > $OUT/lu-rounds.csv
cat $OUT/lu-rounds.csv
