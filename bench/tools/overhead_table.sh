#!/usr/bin/env bash
# Host cost per launch, measured: runs bench/launch_overhead natively on each device,
# then under libsplit on the app's device alone, on every device with default settings, on every
# device with every launch split (uniform shares: each launch waits for its slices), and with
# every launch split by the default balancer (LIBSPLIT_SPLIT=always: once its split holds, the
# launches are pipelined), interleaved round by round so that the
# machine's drift hits every configuration alike; prints the median and range per configuration.
# A split launch's host cost is its time minus the slowest device's own native time.
#
#   bench/tools/overhead_table.sh [--build DIR] [--cc PATH] [--rounds N] [--app-device P:D]
#                                 [--devices P:D,P:D] [--baseline-lib PATH]
#                                 [--] [launch_overhead options]
#
# --baseline-lib: another libsplit.so (an earlier build) measured in the same rounds, its
# configurations prefixed "baseline-": an A/B on one machine.
#
# Devices: whatever the environment gives (POCL_DEVICES="basic pthread" on the CPU-only
# machine; NVIDIA + PoCL on the GPU machine).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$root/build cc="" rounds=5 app_device=0:0 devices="" baseline=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --cc) cc=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --app-device) app_device=$2; shift 2 ;;
    --devices) devices=$2; shift 2 ;;
    --baseline-lib) baseline=$2; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
tool=$build/bench/launch_overhead
lib=$build/lib/libsplit.so
cc=${cc:-$build/bin/libsplit-cc}
[ -x "$tool" ] && [ -f "$lib" ] && [ -x "$cc" ] ||
  { echo "overhead_table: build first ($tool, $lib, $cc)" >&2; exit 2; }
devices=${devices:-$app_device}

measure() { "$@" | sed -n 's/.*: \([0-9.]*\) us per launch.*/\1/p'; }
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for sync in end each; do
  for round in $(seq "$rounds"); do
    for d in ${devices//,/ }; do
      echo "$sync native:$d $(measure "$tool" --device "$d" --sync "$sync" "$@")" >>"$results"
    done
    for variant in libsplit ${baseline:+baseline}; do
      preload=$lib
      [ "$variant" = baseline ] && preload=$baseline
      split() { LD_PRELOAD=$preload LIBSPLIT_CC=$cc LIBSPLIT_TUNING=off "$@"; }
      echo "$sync $variant-app-device-only $(LIBSPLIT_DEVICES=$app_device split measure "$tool" \
        --device "$app_device" --sync "$sync" "$@")" >>"$results"
      echo "$sync $variant-all-default $(split measure "$tool" --device "$app_device" \
        --sync "$sync" "$@")" >>"$results"
      echo "$sync $variant-all-uniform $(LIBSPLIT_BALANCER=uniform split measure "$tool" \
        --device "$app_device" --sync "$sync" "$@")" >>"$results"
      echo "$sync $variant-all-always $(LIBSPLIT_SPLIT=always split measure "$tool" \
        --device "$app_device" --sync "$sync" "$@")" >>"$results"
    done
  done
done
echo "us per launch (median, min-max over $rounds rounds); app device $app_device"
awk '{ key = $1 " " $2; v[key] = v[key] " " $3; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
     END { for (i = 1; i <= n; ++i) print order[i], v[order[i]] }' "$results" |
  while read -r sync config values; do
    sorted=$(tr ' ' '\n' <<<"$values" | grep . | sort -g)
    count=$(wc -l <<<"$sorted")
    median=$(awk -v n="$count" '{ a[NR] = $1 } END { print (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }' <<<"$sorted")
    printf 'sync %-4s %-26s %8s   (%s-%s)\n' "$sync" "$config" "$median" "$(head -1 <<<"$sorted")" \
      "$(tail -1 <<<"$sorted")"
  done
