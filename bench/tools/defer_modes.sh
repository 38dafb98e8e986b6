#!/usr/bin/env bash
# Deferred host writes, measured: runs bench/defer_transfer natively and under
# libsplit with LIBSPLIT_DEFER=mprotect, copy and off, several times each, and prints per mode
# the bytes sent host->devices (from LIBSPLIT_SUMMARY) and the median wall times; then, in runs
# of their own, the time of a first write to a page of a written array (a fault under mprotect).
#
#   bench/tools/defer_modes.sh [--build DIR] [--runs N] [--fault-buffers K] [--]
#                              [defer_transfer options]
#
# Devices: whatever the environment gives (POCL_DEVICES="basic pthread" and --device 0:1 on
# the CPU-only machine; two GPUs elsewhere).
set -euo pipefail

build=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build
runs=3 fault_buffers=64
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --fault-buffers) fault_buffers=$2; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
tool=$build/bench/defer_transfer
lib=$build/lib/libsplit.so
[ -x "$tool" ] && [ -f "$lib" ] || { echo "defer_modes: build first ($tool, $lib)" >&2; exit 2; }

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { sed -n "s/.*$1 \([0-9.]*\) ms.*/\1/p"; }

printf '%-9s %14s %14s %12s %14s %14s %12s %14s %10s\n' mode "to devices MiB" "at write MiB" \
  "write ms" "iterations ms" "rewrite ms" "total ms" "1 MiB write us" "fault us"
run() { # mode, defer_transfer arguments...
  local mode=$1; shift
  if [ $mode = native ]; then
    "$tool" "$@"
  else
    env LD_PRELOAD="$lib" LIBSPLIT_DEFER=$mode LIBSPLIT_SUMMARY=1 LIBSPLIT_TUNING=off "$tool" "$@"
  fi
}

for mode in native mprotect copy off; do
  writes=() iterations=() rewrites=() totals=() faults=() calls=() before= eager=
  for ((r = 0; r < runs; ++r)); do
    log=$(mktemp)
    run $mode "$@" >"$log" 2>&1
    run $mode "$@" --mib 1 --iterations 1 --fault-buffers "$fault_buffers" >"$log.faults" 2>&1
    grep -q WRONG "$log" && { echo "defer_modes: $mode gave a wrong result" >&2; cat "$log" >&2; exit 1; }
    writes+=("$(field 'write call' <"$log")")
    iterations+=("$(field iterations <"$log")")
    rewrites+=("$(field 'host rewrite' <"$log")")
    totals+=("$(field total <"$log")")
    faults+=("$(sed -n 's/.*pages of those arrays: \([0-9.]*\) us each.*/\1/p' "$log.faults")")
    calls+=("$(sed -n 's/.*1 MiB writes: \([0-9.]*\) us each.*/\1/p' "$log.faults")")
    before=$(sed -n 's/.*host to devices: \([0-9.]*\) MiB before kernels.*/\1/p' "$log")
    eager=$(sed -n 's/.*MiB before kernels, \([0-9.]*\) MiB at write time.*/\1/p' "$log")
    rm -f "$log" "$log.faults"
  done
  printf '%-9s %14s %14s %12s %14s %14s %12s %14s %10s\n' $mode "${before:--}" "${eager:--}" \
    "$(printf '%s\n' "${writes[@]}" | median)" "$(printf '%s\n' "${iterations[@]}" | median)" \
    "$(printf '%s\n' "${rewrites[@]}" | median)" "$(printf '%s\n' "${totals[@]}" | median)" \
    "$(printf '%s\n' "${calls[@]}" | median)" "$(printf '%s\n' "${faults[@]}" | median)"
done
