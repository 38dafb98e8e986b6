#!/usr/bin/env bash
# Where a whole-run gap lies, OpenCL call by OpenCL call: one app in interleaved rounds under
# several configurations (as rounds.sh, each round starting one configuration further on), each
# run with bench/tools/call_times.cpp preloaded first (alone natively), then a table per
# configuration of the app's timer and, per OpenCL function, the calls, the median over the runs
# of their total time and of their median call (bench/tools/call_times_table.py).
#
#   APP=build/bench/apps/conv2d APPARGS="--device 0:1 --ni 1024 --nj 1024" OUT=dir \
#     bench/tools/call_times_ab.sh ROUNDS native LIB VAR=VALUE,VAR2=VALUE@LIB ...
#
# A configuration is native, the path of a libsplit.so, or VARS@LIB (VARS@ with no library:
# natively, with them). CALL_TIMES (default build/bench/libcall_times.so beside this tree, or
# PACK's), LIBSPLIT_CC, POCL_DEVICES (default "basic pthread") and LIBSPLIT_TUNING (default off)
# apply to every run. OUT gets each run's report (r<round>-c<configuration>.txt, its first line
# the app's timer line) and table.md.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rounds=${1:?usage: call_times_ab.sh ROUNDS CONFIG...}
shift
app=${APP:?APP names the binary to run}
out=${OUT:?OUT names the folder for the reports}
read -ra args <<<"${APPARGS:-}"
pack=${PACK:-$root/build}
calls=${CALL_TIMES:-$pack/bench/libcall_times.so}
[ -f "$calls" ] || { echo "call_times_ab.sh: no $calls (CALL_TIMES)" >&2; exit 2; }
export LIBSPLIT_CC=${LIBSPLIT_CC:-$pack/bin/libsplit-cc}
export POCL_DEVICES=${POCL_DEVICES:-basic pthread} LIBSPLIT_TUNING=${LIBSPLIT_TUNING:-off}
mkdir -p "$out"
configs=("$@")
for round in $(seq "$rounds"); do
  for step in $(seq 0 $(($# - 1))); do
    index=$(((round - 1 + step) % $#))
    config=${configs[$index]}
    vars=() preload=$calls
    case $config in
    native) ;;
    *@*)
      IFS=, read -ra vars <<<"${config%@*}"
      [ -n "${config#*@}" ] && preload="$calls ${config#*@}"
      ;;
    *) preload="$calls $config" ;;
    esac
    report=$out/r$round-c$((index + 1)).txt
    timer=$(env "${vars[@]}" LD_PRELOAD="$preload" CALL_TIMES_OUT="$report.calls" \
      "$app" "${args[@]}" 2>&1 | grep ' in [0-9.e+-]* s[;,]' | tail -1)
    { echo "${timer:-(no timer line)}"; cat "$report.calls" 2>/dev/null; } >"$report"
    rm -f "$report.calls"
  done
done
python3 "$root/bench/tools/call_times_table.py" "$out" "$@" | tee "$out/table.md"
