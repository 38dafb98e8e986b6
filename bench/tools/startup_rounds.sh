#!/usr/bin/env bash
# A short process's time, phase by phase, under several configurations in rounds whose order
# rotates: bench/tools/startup_phases (or APP) once per configuration a round, each run's
# phases and its wall time (the shell's clock around the process) as CSV on stdout, for
# bench/results/startup_ab.py.
#
#   ROUNDS=30 APPARGS="--device 1:0 --launches 10" bench/tools/startup_rounds.sh \
#     native default=build/lib/libsplit.so base=/tmp/old/libsplit.so \
#     disabled=LIBSPLIT_DISABLE=1@build/lib/libsplit.so > startup.csv
#
# A configuration is native, or NAME=LIB (LIB preloaded), or NAME=VAR=VALUE,...@LIB (those
# variables set too; LIB may be empty: natively, with them). APP defaults to startup_phases of
# PACK (default build/ beside this tree); LIBSPLIT_CC (PACK's libsplit-cc), LIBSPLIT_TUNING
# (off) and POCL_DEVICES (as set) apply to every run.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pack=${PACK:-$root/build}
app=${APP:-$pack/bench/startup_phases}
read -ra args <<<"${APPARGS:---launches 10}"
[ $# -gt 0 ] || { echo "usage: startup_rounds.sh CONFIG..." >&2; exit 2; }
[ -x "$app" ] || { echo "startup_rounds.sh: no $app (APP)" >&2; exit 2; }
export LIBSPLIT_CC=${LIBSPLIT_CC:-$pack/bin/libsplit-cc} LIBSPLIT_TUNING=${LIBSPLIT_TUNING:-off}
configs=("$@")
echo "round,config,wall_ms,phase,seconds"
for round in $(seq "${ROUNDS:-30}"); do
  for step in $(seq 0 $((${#configs[@]} - 1))); do
    config=${configs[$(((round - 1 + step) % ${#configs[@]}))]}
    name=${config%%=*}
    vars=()
    preload=
    case $config in
    native) ;;
    *=*@*)
      setting=${config#*=}
      IFS=, read -ra vars <<<"${setting%@*}"
      preload=${setting##*@}
      ;;
    *=*) preload=${config#*=} ;;
    *)
      echo "startup_rounds.sh: $config is not native, NAME=LIB or NAME=VARS@LIB" >&2
      exit 2
      ;;
    esac
    [ -n "$preload" ] && vars+=("LD_PRELOAD=$preload")
    start=$EPOCHREALTIME
    output=$(env "${vars[@]}" "$app" "${args[@]}" 2>&1)
    end=$EPOCHREALTIME
    echo "$output" | awk -v r="$round" -v c="$name" -v s="$start" -v e="$end" \
      '$1 == "phase" {printf "%s,%s,%.1f,%s,%s\n", r, c, (e - s) * 1000, $2, $3}'
  done
done
