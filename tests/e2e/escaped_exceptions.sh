#!/usr/bin/env bash
# e2e.escaped-exceptions: escaped_exception_app with throwing_new_preload.so before libsplit,
# each run failing another of libsplit's allocations (FIRST, then COUNT more) once the app's
# commands start. Every run must end by itself with phase 2 right; runs whose failed allocation
# failed a command must say so through libsplit ("failed inside libsplit"). Most runs must
# really have failed one (else the test would check nothing).
#
#   escaped_exceptions.sh THROWING_NEW_PRELOAD LIBSPLIT_PRELOAD APP
set -uo pipefail
shim=$1 preload=$2 app=$3
runs=0 threw=0 failed_commands=0
for config in "LIBSPLIT_SPLIT=always" "LIBSPLIT_SPLIT=auto" "LIBSPLIT_SPLIT=always LIBSPLIT_CHUNK=always"; do
  for first in ${FIRSTS:-0 1 2 3 5 8 13 21 34 55 89 144 233 377 610 987}; do
    for count in 1 4; do
      out=$(env POCL_DEVICES="basic pthread" LIBSPLIT_TUNING=off $config \
        LD_PRELOAD="$shim $preload" timeout -k 5 60 "$app" 0:1 "$first" "$count" 2>&1)
      status=$?
      runs=$((runs + 1))
      if [ $status -ne 0 ] || ! grep -q "phase 2: right" <<<"$out"; then
        echo "$out"
        echo "FAIL: $config, allocations $first (+$count): exit $status"
        exit 1
      fi
      grep -q "throwing_new: [1-9][0-9]* allocations" <<<"$out" && threw=$((threw + 1))
      if ! grep -q "phase 1: 0 failed" <<<"$out"; then
        failed_commands=$((failed_commands + 1))
        if ! grep -q "failed inside libsplit" <<<"$out"; then
          echo "$out"
          echo "FAIL: $config, allocations $first (+$count): a command failed, libsplit said nothing"
          exit 1
        fi
      fi
      echo "$config first=$first count=$count: $(grep -o 'phase 1: [0-9]* failed' <<<"$out"), $(grep -o '[0-9]* allocations from libsplit failed' <<<"$out")"
    done
  done
done
echo "$runs runs, $threw with allocations failed, $failed_commands with a command failed"
[ $((threw * 4)) -ge $((runs * 3)) ] || { echo "FAIL: too few runs failed an allocation"; exit 1; }
