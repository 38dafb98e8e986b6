#!/usr/bin/env bash
# One-off GPU A/B (not committed): the quiet wait's pauses, d5a4577 (prev) against the tree.
set -u
P=$PWD/build-gpu
export LIBSPLIT_CC=$P/bin/libsplit-cc LIBSPLIT_TUNING=off
[ -x $LIBSPLIT_CC ] || { xz -dk $P/bin/libsplit-cc.xz; chmod +x $LIBSPLIT_CC; }
clinfo -l | grep -q NVIDIA || echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
G=$($P/bin/libsplit --list-devices | awk '$2 == "gpu" {print $1; exit}')
t() { local s=$EPOCHREALTIME; "$@" > $OUT/last.log 2>&1; local rc=$?; echo "$(awk -v a=$s -v b=$EPOCHREALTIME 'BEGIN{printf "%.3f", b-a}') s wall, rc $rc, $(grep -o 'in [0-9.e-]* s' $OUT/last.log | tail -1): $*" | sed "s|$P/||g"; }
j=($P/bench/apps/jacobi2d --device $G --n 8192 --iterations 100)
f=($P/bench/apps/fdtd2d --device $G --nx 4096 --ny 4096 --steps 100)
for app in j f; do
  declare -n cmd=$app
  for r in 1 2 3; do
    t "${cmd[@]}"
    for lib in libsplit.so libsplit-prev.so; do
      t env LD_PRELOAD=$P/lib/$lib LIBSPLIT_DEVICES=gpu LIBSPLIT_OPEN=now LIBSPLIT_STATIC='#1=0.5,#2=0.5' "${cmd[@]}"
      t env LD_PRELOAD=$P/lib/$lib LIBSPLIT_SPLIT=always LIBSPLIT_OPEN=now "${cmd[@]}"
    done
  done
done
env LD_PRELOAD=$P/lib/libsplit.so LIBSPLIT_DEVICES=gpu LIBSPLIT_OPEN=now LIBSPLIT_STATIC='#1=0.5,#2=0.5' LIBSPLIT_TIMELINE=$OUT/j2d-half-timeline.json "${j[@]}" > /dev/null 2>&1
xz -9 $OUT/*.json
