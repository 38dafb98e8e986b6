#!/usr/bin/env bash
# Per-launch kernel time of the compute-bound apps on the first GPU at a few sizes, to choose
# bench sizes where a launch takes tens of milliseconds on one GPU (issue 8).
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
  line=$(timeout 300 "$pack/bench/apps/$app" --device "$device" "$@" 2>&1 | tail -1)
  printf '%-5s %-10s %-45s wall %6.2f s | %s\n' "$device" "$app" "$*" \
    "$(echo "$(date +%s.%N) - $start" | bc)" "$line"
}
for size in "--groups 4096 --pairs 1024" "--groups 16384 --pairs 1024" "--groups 16384 --pairs 4096"; do
  run "$gpu" ep $size --iterations 10
done
for size in "--blocks 8388608" "--blocks 33554432"; do run "$gpu" aes $size --iterations 10; done
for size in "--options 1024 --pairs 1024" "--options 4096 --pairs 4096" "--options 8192 --pairs 16384"; do
  run "$gpu" montecarlo $size --iterations 10
done
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
run "$cpu" ep --groups 4096 --pairs 1024 --iterations 2
run "$cpu" aes --blocks 8388608 --iterations 2
run "$cpu" montecarlo --options 1024 --pairs 1024 --iterations 2
