#!/usr/bin/env bash
# One-off GPU A/B (not committed as is): the quiet wait's pauses on short runs at default settings.
set -u
P=$PWD/build-gpu
export LIBSPLIT_CC=$P/bin/libsplit-cc LIBSPLIT_TUNING=off
[ -x $LIBSPLIT_CC ] || { xz -dk $P/bin/libsplit-cc.xz; chmod +x $LIBSPLIT_CC; }
clinfo -l | grep -q NVIDIA || echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
G=$($P/bin/libsplit --list-devices | awk '$2 == "gpu" {print $1; exit}')
t() { local s=$EPOCHREALTIME; "$@" > $OUT/last.log 2>&1; local rc=$?; echo "$(awk -v a=$s -v b=$EPOCHREALTIME 'BEGIN{printf "%.3f", b-a}') s wall, rc $rc, $(grep -o 'in [0-9.e-]* s' $OUT/last.log | tail -1): $*" | sed "s|$P/||g"; }
ep=($P/bench/apps/ep --device $G --groups 64 --pairs 64 --iterations 1)
lu=($P/bench/apps/lu --device $G --n 2048)
j1=($P/bench/apps/jacobi1d --device $G --n 1000000 --iterations 1000)
for app in ep lu j1; do declare -n c=$app; "${c[@]}" > /dev/null 2>&1; done
for r in 1 2 3 4 5; do
  for app in ep lu j1; do
    declare -n cmd=$app
    t "${cmd[@]}"
    t env LD_PRELOAD=$P/lib/libsplit.so "${cmd[@]}"
    t env LD_PRELOAD=$P/lib/libsplit-qw.so "${cmd[@]}"
  done
done
