#!/usr/bin/env bash
# Bytes moved, the app's timer and the executor's host work of split launches, this build's
# library against another build's (an A/B on one machine, rounds interleaved): LU and
# Gram-Schmidt with every launch split evenly on the CI pair (LIBSPLIT_STATIC 0.5,0.5), where the
# regions of their columns decide what moves.
#
#   bench/tools/regions_ab.sh BASELINE_BUILD_DIR [--rounds N] > summary.txt
#
# Each run prints libsplit's summary lines (per kernel: bytes moved) and the app's own line;
# then one callgrind run of LU 384 per library, the instructions of executeLaunch (inclusive),
# the executor's planning and moving for a split launch.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
base=${1:?a baseline build directory (its lib/libsplit.so and bin/libsplit-cc)}
rounds=3
[ "${2:-}" = --rounds ] && rounds=$3
export POCL_DEVICES='basic pthread' LIBSPLIT_TUNING=off LIBSPLIT_SPLIT=always \
  LIBSPLIT_BALANCER=static LIBSPLIT_STATIC=0.5,0.5
run() { # library-name app args...
  local name=$1 lib cc
  shift
  if [ "$name" = new ]; then lib=$root/build/lib/libsplit.so cc=$root/build/bin/libsplit-cc
  else lib=$base/lib/libsplit.so cc=$base/bin/libsplit-cc; fi
  echo "== library $name: $*"
  LIBSPLIT_SUMMARY=1 LIBSPLIT_CC=$cc LD_PRELOAD=$lib "$root/build/bench/apps/$@" --device 0:1 2>&1 |
    grep -E '^libsplit:   [a-z_]+ +[0-9]+ launches|: (PASS|FAIL)'
}
for round in $(seq "$rounds"); do
  echo "#### round $round"
  for lib in new baseline; do
    run $lib lu --n 384
    run $lib lu --n 768
    run $lib gramschmidt --m 100 --n 64
    run $lib gramschmidt --m 300 --n 200
  done
done
echo "#### callgrind, lu --n 384: executeLaunch inclusive instructions"
for lib in new baseline; do
  if [ "$lib" = new ]; then l=$root/build/lib/libsplit.so c=$root/build/bin/libsplit-cc
  else l=$base/lib/libsplit.so c=$base/bin/libsplit-cc; fi
  out=$(mktemp)
  LIBSPLIT_CC=$c LD_PRELOAD=$l valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$root/build/bench/apps/lu" --device 0:1 --n 384 >/dev/null 2>&1
  echo "$lib $(callgrind_annotate --inclusive=yes "$out" 2>/dev/null |
    grep -m1 'libsplit::executeLaunch(' | awk '{print $1}') for 766 launches"
  rm -f "$out"
done
