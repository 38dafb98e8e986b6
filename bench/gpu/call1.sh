#!/usr/bin/env bash
# Session 28, call 1 (two H200s): the warm start's runs 1-3 of 2-D stencils at default settings
# (0d4353e's overrun of a credited spread, 81dbf0f's seeded split), jacobi2d 16384 x 1000's three
# runs with debug, then the whole GPU list at default twice against native.
set -uo pipefail
source bench/gpu/pack_env.sh
{ nvidia-smi -L; nproc; build-gpu/bin/libsplit --list-devices; } > $OUT/machine.txt 2>&1
LIST=bench/gpu/warm-runs.txt CONFIGS="native first second second" \
  bench/gpu/whole_runs.sh > $OUT/runs-warm.csv 2> $OUT/stderr-warm.txt
cat $OUT/runs-warm.csv
lib=$PWD/build-gpu/lib/libsplit.so
cache=$(mktemp -d)
for run in 1 2 3; do
  XDG_CACHE_HOME=$cache LIBSPLIT_TUNING=save LIBSPLIT_DEBUG=split LIBSPLIT_SUMMARY=1 \
    LD_PRELOAD=$lib build-gpu/bench/apps/jacobi2d --device $gpu --n 16384 --iterations 1000 > $OUT/jacobi2d-1000-run$run.txt 2>&1
  grep -E "PASS|FAIL|time|^libsplit:   " $OUT/jacobi2d-1000-run$run.txt | head -20
  grep -vE "running whole is the cheaper|the split is the cheaper" $OUT/jacobi2d-1000-run$run.txt | head -16 | cut -c1-220
done
cp -r $cache/libsplit/tuning $OUT/tuning 2>/dev/null
gzip $OUT/jacobi2d-*.txt
LIST=bench/gpu/whole-runs.txt CONFIGS="native default default" STOP_AFTER=${LIST_STOP:-320} \
  bench/gpu/whole_runs.sh > $OUT/runs-list.csv 2> $OUT/stderr-list.txt
cut -d, -f1-6 $OUT/runs-list.csv
