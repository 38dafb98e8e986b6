#!/usr/bin/env bash
# Session 28, call 3 (two H200s): LIBSPLIT_OPEN=auto counting queued work (the former queued) as
# the default. The warm start's runs 1-3 of the stencils, the targets at default, and the
# whole GPU list native, default, and the session's start (b2db554, BASELINE_LIB).
set -uo pipefail
source bench/gpu/pack_env.sh
{ nvidia-smi -L; nproc; build-gpu/bin/libsplit --list-devices; } > $OUT/machine.txt 2>&1
LIST=bench/gpu/warm-runs.txt CONFIGS="native first second second" \
  bench/gpu/whole_runs.sh > $OUT/runs-warm.csv 2> $OUT/stderr-warm.txt
cut -d, -f1-6 $OUT/runs-warm.csv
printf '%s\n' "ep | --groups 131072 --pairs 65536 --iterations 1" \
  "triangular | --n 1048576 --work 27522040" "lu | --n 8192" > $OUT/list-targets.txt
BASELINE_LIB=$PWD/build-gpu/base/libsplit-b2db554.so LIST=$OUT/list-targets.txt CONFIGS="native default baseline" \
  bench/gpu/whole_runs.sh > $OUT/runs-targets.csv 2> $OUT/stderr-targets.txt
cut -d, -f1-6 $OUT/runs-targets.csv
BASELINE_LIB=$PWD/build-gpu/base/libsplit-b2db554.so LIST=bench/gpu/whole-runs.txt \
  CONFIGS="native default baseline" STOP_AFTER=${LIST_STOP:-250} \
  bench/gpu/whole_runs.sh > $OUT/runs-list.csv 2> $OUT/stderr-list.txt
cut -d, -f1-6 $OUT/runs-list.csv
