#!/usr/bin/env bash
# Per-launch kernel time of the compute-bound apps on the first GPU at a few sizes, to choose
# bench sizes where a launch takes tens of milliseconds on one GPU (so that
# splitting has something to gain over a launch's fixed costs).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pack="$root/build-gpu"
if ! clinfo -l 2>/dev/null | grep -q NVIDIA && [ -e /usr/lib/libnvidia-opencl.so.1 ]; then
  echo /usr/lib/libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
gpu=${GPU_DEVICE:-1:0}
cpu=${CPU_DEVICE:-0:0}
run() { # run DEVICE APP ARGS...
  local device=$1; shift
  local app=$1; shift
  local start=$(date +%s.%N)
  local line
  line=$(timeout ${RUN_TIMEOUT:-300} "$pack/bench/apps/$app" --device "$device" "$@" 2>&1 | tail -1)
  printf '%-5s %-10s %-45s wall %6.2f s | %s\n' "$device" "$app" "$*" \
    "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')" "$line"
}
if [ "${PARTS:-all}" = all ]; then
  for size in "--groups 4096 --pairs 1024" "--groups 16384 --pairs 1024" "--groups 16384 --pairs 4096"; do
    run "$gpu" ep $size --iterations 10
  done
  for size in "--blocks 8388608" "--blocks 33554432"; do run "$gpu" aes $size --iterations 10; done
  for size in "--options 1024 --pairs 1024" "--options 4096 --pairs 4096" "--options 8192 --pairs 16384"; do
    run "$gpu" montecarlo $size --iterations 10
  done
fi
# PolyBench-style apps (PARTS=poly runs only these).
if [[ " ${PARTS:-all} " == *" poly "* || "${PARTS:-all}" == all ]]; then
  for n in 2048 4096; do run "$gpu" gemm --size $n --iterations 5; done
  for n in 2048 3072; do run "$gpu" mm2 --size $n --iterations 5; done
  for n in 2048 4096; do run "$gpu" syrk --n $n --m $n --iterations 5; done
  for n in 2048 3072; do run "$gpu" syr2k --n $n --m $n --iterations 5; done
  run "$gpu" covariance --n 4096 --m 2048 --iterations 5
  run "$gpu" conv2d --ni 8192 --nj 8192 --iterations 50
  run "$gpu" jacobi2d --n 8192 --iterations 50
  run "$gpu" gesummv --n 16384 --iterations 50
  [ "${PARTS:-all}" = all ] || exit 0
fi
# The other apps (PARTS=rest runs only these), on the GPU and on the CPU at the same sizes: the
# memory-bound ones cannot reach tens of milliseconds a launch on an H200 at any size that fits,
# so their sizes are chosen to move gigabytes instead.
if [[ " ${PARTS:-all} " == *" rest "* || "${PARTS:-all}" == all ]]; then
  while read -r app args; do
    for device in "$gpu" "$cpu"; do run "$device" "$app" $args; done
  done <<'SIZES'
nbody --n 65536 --iterations 5
nbody --n 131072 --iterations 3
spmv --rows 2000000 --max-nnz-per-row 128 --iterations 20
atax --m 16384 --n 16384 --iterations 10
bicg --n 16384 --iterations 10
mvt --n 16384 --iterations 10
gesummv --n 16384 --iterations 20
jacobi1d --n 100000000 --iterations 100
jacobi2d --n 16384 --iterations 50
covariance --n 4096 --m 2048 --iterations 5
stencil2d --nx 16384 --ny 16384 --iterations 50
reduction --n 268435456 --iterations 10
matmul --size 4096 --iterations 5
atomics --n 268435456 --iterations 5
vecadd --n 268435456 --iterations 10
SIZES
  [ "${PARTS:-all}" = all ] || exit 0
fi
run "$cpu" ep --groups 4096 --pairs 1024 --iterations 2
run "$cpu" aes --blocks 8388608 --iterations 2
run "$cpu" montecarlo --options 1024 --pairs 1024 --iterations 2
