#!/usr/bin/env bash
# Where an app's main thread waits off the CPU, natively and under libsplit at default settings,
# call by call (bench/tools/offcpu.py over perf's scheduler switch events with their stacks,
# recorded system-wide: the switches back to the app are other tasks'):
# what a profile of CPU samples cannot show. Needs the pack built with PERF=1 and the app in
# PERF_APPS (pack.sh).
#
#   APP=cg ARGS="--n 1024 --iterations 2000" RUNS=2 bench/gpu/offcpu.sh > offcpu.txt
#
# ON_CPU=1: where the main thread is on the CPU instead (bench/tools/oncpu.py over CPU-clock
# samples of the app's threads): a driver that spins while it waits shows there.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/pack_env.sh"
# perf's own libraries only for perf: the app under it with them had its stacks cut short.
app_libs=${LD_LIBRARY_PATH:-}
P() { env LD_LIBRARY_PATH="$pack/perf/lib" "$pack/perf/perf" "$@"; }
app=${APP:?APP names an app of bench/apps}
read -ra argv <<<"${ARGS:-}"
data=$(mktemp)
for run in $(seq "${RUNS:-1}"); do
  for config in native default; do
    env=()
    [ "$config" = default ] && env=(LD_PRELOAD="$pack/lib/libsplit-syms.so")
    if [ "${ON_CPU:-0}" = 1 ]; then
      recording=(-e cpu-clock -F "${FREQ:-20000}") fields=comm,pid,tid,time,period,ip,sym,dso
      tool=oncpu.py
    else
      recording=(-a -e sched:sched_switch) fields=pid,tid,time,trace,ip,sym,dso tool=offcpu.py
    fi
    timer=$(P record -q "${recording[@]}" --call-graph dwarf,16384 -o "$data" -- \
      env LD_LIBRARY_PATH="$app_libs" "${env[@]}" "$pack/bench/apps/$app" --device "$gpu" \
      "${argv[@]}" 2>&1 |
      grep -o 'in [0-9.e+-]* s' | tail -1)
    echo "== $app ${argv[*]}: $config, run $run, the app's timer: ${timer:-(no timer: perf failed?)}"
    P script -i "$data" -F "$fields" 2>/dev/null |
      "$root/bench/tools/$tool" --comm "$app" --top "${TOP:-12}"
  done
done
rm -f "$data"
