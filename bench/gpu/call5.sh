#!/usr/bin/env bash
# Session 28, call 5 (two H200s): a spread counts the work the app queued, every kernel's
# (8a70c95). The stencils' first and second runs with the warm start, jacobi2d 16384 x 1000's
# first run with debug, and Gram-Schmidt (0.65 s of queued work) against f4b9af3.
set -uo pipefail
source bench/gpu/pack_env.sh
{ nvidia-smi -L; nproc; build-gpu/bin/libsplit --list-devices; } > $OUT/machine.txt 2>&1
LIST=bench/gpu/warm-runs.txt CONFIGS="native first second" \
  bench/gpu/whole_runs.sh > $OUT/runs-warm.csv 2> $OUT/stderr-warm.txt
cut -d, -f1-6 $OUT/runs-warm.csv
lib=$PWD/build-gpu/lib/libsplit.so
LIBSPLIT_TUNING=off LIBSPLIT_DEBUG=split LIBSPLIT_SUMMARY=1 \
  LD_PRELOAD=$lib build-gpu/bench/apps/jacobi2d --device $gpu --n 16384 --iterations 1000 > $OUT/jacobi2d-1000-first.txt 2>&1
grep -E "PASS|FAIL|^libsplit:   " $OUT/jacobi2d-1000-first.txt | cut -c1-200
grep -vE "running whole is the cheaper|the split is the cheaper|ran work-groups" $OUT/jacobi2d-1000-first.txt | head -14 | cut -c1-220
grep -n "probing\|spread probe" $OUT/jacobi2d-1000-first.txt | head -3 | cut -c1-120
gzip $OUT/jacobi2d-*.txt
printf '%s\n' "gramschmidt | --m 2048 --n 1024" > $OUT/list-gs.txt
BASELINE_LIB=$PWD/build-gpu/base/libsplit-f4b9af3.so LIST=$OUT/list-gs.txt CONFIGS="native default baseline" \
  bench/gpu/whole_runs.sh > $OUT/runs-gs.csv 2> $OUT/stderr-gs.txt
cut -d, -f1-6 $OUT/runs-gs.csv
