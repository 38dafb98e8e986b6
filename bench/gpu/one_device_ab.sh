#!/usr/bin/env bash
# "A single device within 1% of native", measured on whole apps: each app of the GPU
# manifest natively on the GPU, under libsplit restricted to it (LIBSPLIT_DEVICES) and under
# libsplit disabled (LIBSPLIT_DISABLE=1, pure pass-through), rounds
# interleaved so that drift hits both alike; prints each run's app-timed seconds (the apps' own
# stopwatch) and the median ratio per app. BASELINE_SO: another libsplit.so in the same rounds.
#
#   APPS="ep aes conv2d" ROUNDS=5 bench/gpu/one_device_ab.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pack="$root/build-gpu"
gpu=${GPU_DEVICE:-1:0}
rounds=${ROUNDS:-5}
[ -f "$pack/bin/libsplit-cc.xz" ] && [ ! -x "$pack/bin/libsplit-cc" ] &&
  xz -dk "$pack/bin/libsplit-cc.xz" && chmod +x "$pack/bin/libsplit-cc"
export LIBSPLIT_CC=$pack/bin/libsplit-cc LIBSPLIT_TUNING=off
seconds() { sed -n 's/.* in \([0-9.e+-]*\) s;.*/\1/p' | tail -1; }
for app in ${APPS:-ep aes montecarlo conv2d syrk}; do
  read -ra args <<<"$(awk -F'|' -v a="$app" '$1 ~ "^"a" *$" {print $4}' \
    "$root/bench/gpu/manifest-h200.txt")"
  "$pack/bench/apps/$app" --device "$gpu" "${args[@]}" >/dev/null 2>&1 # warm the caches
  for round in $(seq "$rounds"); do
    echo "$app native $("$pack/bench/apps/$app" --device "$gpu" "${args[@]}" 2>&1 | seconds)"
    echo "$app libsplit $(LIBSPLIT_DEVICES=$gpu LD_PRELOAD=$pack/lib/libsplit.so \
      "$pack/bench/apps/$app" --device "$gpu" "${args[@]}" 2>&1 | seconds)"
    echo "$app disabled $(LIBSPLIT_DISABLE=1 LD_PRELOAD=$pack/lib/libsplit.so \
      "$pack/bench/apps/$app" --device "$gpu" "${args[@]}" 2>&1 | seconds)"
    [ -n "${BASELINE_SO:-}" ] && echo "$app baseline $(LIBSPLIT_DEVICES=$gpu \
      LD_PRELOAD=$BASELINE_SO "$pack/bench/apps/$app" --device "$gpu" "${args[@]}" 2>&1 | seconds)"
  done
done | tee "${TMPDIR:-/tmp}/one_device_ab.txt"
median() { grep "^$1 $2 " "${TMPDIR:-/tmp}/one_device_ab.txt" | awk '{print $3}' | grep . | sort -g |
  awk '{ a[NR] = $1 } END { if (NR) print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "median app-timed seconds over $rounds rounds, GPU $gpu"
for app in ${APPS:-ep aes montecarlo conv2d syrk}; do
  native=$(median "$app" native)
  line="$app: native $native s"
  for config in libsplit disabled ${BASELINE_SO:+baseline}; do
    value=$(median "$app" "$config")
    line+=", $config $value s ($(awk -v a="$value" -v b="$native" 'BEGIN { if (b > 0) printf "x%.3f", a / b }'))"
  done
  echo "$line"
done
