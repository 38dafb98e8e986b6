#!/usr/bin/env bash
# One-off GPU investigation, run from the repository root with build-gpu/ packed
# (CC_BUILD=build-static bench/gpu/pack.sh): cfd's wall time, the partition-ready kernel alone,
# jacobi2d 8192 split 50/50 on the two GPUs without probes.
set -u
P=$PWD/build-gpu
export LIBSPLIT_CC=$P/bin/libsplit-cc LIBSPLIT_TUNING=off
[ -x $LIBSPLIT_CC ] || { xz -dk $P/bin/libsplit-cc.xz; chmod +x $LIBSPLIT_CC; }
clinfo -l | grep -q NVIDIA || echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
G=$($P/bin/libsplit --list-devices | awk '$2 == "gpu" {print $1; exit}')
$P/bin/libsplit --list-devices > $OUT/devices.txt
t() { local s=$EPOCHREALTIME; "$@" > $OUT/last.log 2>&1; local rc=$?; echo "$(awk -v a=$s -v b=$EPOCHREALTIME 'BEGIN{printf "%.3f", b-a}') s wall, rc $rc, $(grep -o 'in [0-9.e-]* s' $OUT/last.log | tail -1): $*" | sed "s|$P/||g"; }
L=$P/lib/libsplit.so
cfd=($P/bench/apps/cfd --device $G --n 65536 --steps 2000)
$P/bench/apps/cfd --device $G --n 65536 --steps 20 > /dev/null 2>&1
for r in 1 2; do
  t "${cfd[@]}"
  t env LD_PRELOAD=$L "${cfd[@]}"
  t env LD_PRELOAD=$L LIBSPLIT_DEVICES=gpu "${cfd[@]}"
  t env LD_PRELOAD=$L LIBSPLIT_OPEN=1000 "${cfd[@]}"
done
env LD_PRELOAD=$L LIBSPLIT_LOG=debug LIBSPLIT_TIMELINE=$OUT/cfd-timeline.json "${cfd[@]}" > $OUT/cfd-debug.log 2>&1
j=($P/bench/apps/jacobi2d --device $G --n 8192 --iterations 100)
for r in 1 2; do
  t "${j[@]}"
  t env LD_PRELOAD=$L LIBSPLIT_DEVICES=gpu LIBSPLIT_OPEN=now LIBSPLIT_STATIC='#1=1,#2=0' "${j[@]}"
  t env LD_PRELOAD=$L LIBSPLIT_DEVICES=gpu LIBSPLIT_OPEN=now LIBSPLIT_STATIC='#1=0.5,#2=0.5' "${j[@]}"
done
env LD_PRELOAD=$L LIBSPLIT_DEVICES=gpu LIBSPLIT_OPEN=now LIBSPLIT_STATIC='#1=1,#2=0' LIBSPLIT_TRACE=$OUT/j2d-one.jsonl "${j[@]}" > $OUT/j2d-one.log 2>&1
env LD_PRELOAD=$L LIBSPLIT_DEVICES=gpu LIBSPLIT_OPEN=now LIBSPLIT_STATIC='#1=0.5,#2=0.5' LIBSPLIT_TRACE=$OUT/j2d-half.jsonl LIBSPLIT_TIMELINE=$OUT/j2d-half-timeline.json "${j[@]}" > $OUT/j2d-half.log 2>&1
xz -9 $OUT/*.json $OUT/*.jsonl
