#!/usr/bin/env bash
# Where a host-bound loop's extra time per launch under libsplit comes from, on the GPU machine:
# the short runs whose launches the host bounds natively (jacobi1d x 1000, LU 2048) in
# interleaved rounds, natively twice (the host's own noise), under libsplit by default, on the
# app's GPU alone (LIBSPLIT_DEVICES: no profiling real queue, no second device planned), with
# the preload alone (LIBSPLIT_DISABLE=1), and natively and under libsplit with the process pinned
# to a few CPUs of one socket (taskset: migrations across the machine ruled out; libsplit's
# threads share those CPUs with the app's); then what NVIDIA's profiling queue alone
# costs a host-bound launch natively (launch_overhead --profiling 1), and each configuration's
# context switches and migrations (perf stat, where PERF names a perf binary). Instances of the
# same machine kind differ here (2026-11-28: jacobi1d 1.06x of native on one H100 pair, 0.87x on
# another): run it where the gap shows.
#
#   ROUNDS=7 bench/gpu/host_gap.sh > host-gap.txt     (binaries from build-gpu/, pack.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/pack_env.sh"
lib=$pack/lib/libsplit.so
rounds=${ROUNDS:-7}
cpus=${PIN_CPUS:-2-5}
echo "gpu $gpu, $rounds rounds, pinned runs on CPUs $cpus"
for app in "jacobi1d --n 1000000 --iterations 1000" "lu --n 2048"; do
  read -ra a <<<"$app"
  echo "-- $app (native, default, app's GPU alone, preload alone, default pinned, native pinned, native)"
  APP=$pack/bench/apps/${a[0]} APPARGS="--device $gpu ${a[*]:1}" RAW=${TMPDIR:-/tmp}/host-gap-${a[0]}.txt \
    LIBSPLIT_CC=$LIBSPLIT_CC "$root/bench/tools/rounds.sh" "$rounds" native "$lib" \
    "LIBSPLIT_DEVICES=$gpu@$lib" "LIBSPLIT_DISABLE=1@$lib" "TASKSET=$cpus@$lib" "TASKSET=$cpus@" native
done
echo "-- launch_overhead --global 4096 --local 64 --launches 100000, natively: profiling queue off, on"
for _ in 1 2 3; do
  for profiling in 0 1; do
    echo "profiling $profiling: $("$pack/bench/launch_overhead" --device "$gpu" --global 4096 \
      --local 64 --launches 100000 --profiling $profiling 2>&1 | tail -1)"
  done
done
if [ -n "${PERF:-}" ]; then
  echo "-- perf stat, jacobi1d --n 1000000 --iterations 5000"
  for config in native default onegpu; do
    case $config in
    native) env=() ;;
    default) env=(LD_PRELOAD="$lib") ;;
    onegpu) env=(LD_PRELOAD="$lib" LIBSPLIT_DEVICES="$gpu") ;;
    esac
    echo "$config: $("$PERF" stat -e task-clock,context-switches,cpu-migrations -- env "${env[@]}" \
      "$pack/bench/apps/jacobi1d" --device "$gpu" --n 1000000 --iterations 5000 2>&1 |
      grep -E ' in [0-9.]+ s|task-clock|context-switches|cpu-migrations' | tr -s ' ' | tr '\n' ' ')"
  done
fi
