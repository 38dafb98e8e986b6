#!/usr/bin/env bash
# Session 32, call 8 (two H200s): the split gains with the twin queue (ahead, the session's last
# code) against e24c24a (base): the "faster" issue's one-launch targets and the 2-D stencil,
# three interleaved rounds with native, first runs, default settings.
set -uo pipefail
source bench/gpu/pack_env.sh
export POCL_DEVICES=pthread
lib=$pack/lib/libsplit.so base=$pack/base/libsplit.so
{ nvidia-smi -L; nproc; clinfo -l; } > $OUT/machine.txt 2>&1
while IFS='|' read -r name app args; do
  APP=$pack/bench/apps/$app APPARGS="--device $gpu $args" RAW=$OUT/$name.txt CSV=$OUT/$name.csv \
    NAMES="native ahead base" bench/tools/rounds.sh 3 native $lib $base
  echo "$name done at $SECONDS s"
done <<'LIST'
ep|ep|--groups 131072 --pairs 65536 --iterations 1
triangular|triangular|--n 1048576 --work 27522040
jacobi2d16384|jacobi2d|--n 16384 --iterations 1000
syrk|syrk|--n 4096 --m 4096 --iterations 1
LIST
cd $OUT && tar czf call8.tgz *.txt *.csv
echo "elapsed $SECONDS s"
