#!/usr/bin/env bash
# Whole runs on two GPUs of one kind: where the app's host writes go decides whether
# the input's first move lands inside the app's stopwatch. Each app natively on the GPU, then
# under libsplit on DEVICES with LIBSPLIT_UPLOAD=auto (each device gets its expected part at the
# write) and =at-launch (each device fetches its part at its first launch), rounds interleaved;
# prints each run's app-timed seconds and the MiB moved before kernels, then the medians.
#
#   DEVICES=gpu APPS="aes conv2d" ROUNDS=5 bench/gpu/upload_ab.sh
#   (the CI pair: GPU_DEVICE=0:1 DEVICES=all MANIFEST=bench/apps/manifest.txt SET=1)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pack=${PACK:-$root/build-gpu}
gpu=${GPU_DEVICE:-1:0}
rounds=${ROUNDS:-5}
manifest=${MANIFEST:-$root/bench/gpu/manifest-h200.txt}
set_index=${SET:-0} # which of the manifest's ';'-separated argument sets
[ -f "$pack/bin/libsplit-cc.xz" ] && [ ! -x "$pack/bin/libsplit-cc" ] &&
  xz -dk "$pack/bin/libsplit-cc.xz" && chmod +x "$pack/bin/libsplit-cc"
[ -x "$pack/bin/libsplit-cc" ] && export LIBSPLIT_CC=$pack/bin/libsplit-cc
export LIBSPLIT_TUNING=off
log=${TMPDIR:-/tmp}/upload_ab.txt
seconds() { sed -n 's/.* in \([0-9.e+-]*\) s;.*/\1/p' | tail -1; }
before_kernels() { sed -n 's/.*host to devices: \([0-9.]*\) MiB before kernels.*/\1/p' | tail -1; }
split_run() { # upload mode, app, args...
  local mode=$1 app=$2
  shift 2
  local out
  out=$(LIBSPLIT_DEVICES=${DEVICES:-gpu} LIBSPLIT_UPLOAD=$mode LIBSPLIT_SUMMARY=1 \
    LIBSPLIT_BALANCER=${BALANCER:-uniform} LD_PRELOAD="$pack/lib/libsplit.so" \
    "$pack/bench/apps/$app" --device "$gpu" "$@" 2>&1)
  echo "$app $mode $(echo "$out" | seconds) $(echo "$out" | before_kernels)"
}
for app in ${APPS:-aes conv2d}; do
  sets=$(awk -F'|' -v a="$app" '$1 ~ "^"a" *$" {print $NF}' "$manifest")
  IFS=';' read -ra argsets <<<"$sets"
  read -ra args <<<"${argsets[$set_index]}"
  "$pack/bench/apps/$app" --device "$gpu" "${args[@]}" >/dev/null 2>&1 # warm the caches
  for round in $(seq "$rounds"); do
    echo "$app native $("$pack/bench/apps/$app" --device "$gpu" "${args[@]}" 2>&1 | seconds)"
    split_run auto "$app" "${args[@]}"
    split_run at-launch "$app" "${args[@]}"
  done
done | tee "$log"
median() { grep "^$1 $2 " "$log" | awk -v c="$3" '{print $c}' | grep . | sort -g |
  awk '{ a[NR] = $1 } END { if (NR) print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "median app-timed seconds over $rounds rounds (MiB moved before kernels), app device $gpu," \
  "LIBSPLIT_DEVICES=${DEVICES:-gpu}, balancer ${BALANCER:-uniform}"
for app in ${APPS:-aes conv2d}; do
  native=$(median "$app" native 3)
  line="$app: native $native s"
  for mode in auto at-launch; do
    value=$(median "$app" "$mode" 3)
    line+=", $mode $value s ($(awk -v a="$value" -v b="$native" \
      'BEGIN { if (b > 0) printf "x%.3f", a / b }'), $(median "$app" "$mode" 4) MiB)"
  done
  echo "$line"
done
