#!/usr/bin/env bash
# Where AES's whole-run time goes under libsplit on the GPU machine (issue 8: 9-17x slower than
# one H200 over a whole run while the per-launch time halves): the same run natively, then under
# libsplit with the timeline, the summary and the compile log, once per LIBSPLIT_DEFER mode, on
# the devices LIBSPLIT_DEVICES names (default: every GPU). Writes into $OUT/aes-inspect.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pack="$root/build-gpu"
devices=${LIBSPLIT_DEVICES:-gpu}
out=${OUT:-$root/gpu-out}/aes-inspect-${devices//[^a-z0-9]/_}
mkdir -p "$out"
gpu=${GPU_DEVICE:-1:0}
args=${AES_ARGS:---blocks 67108864 --iterations 10}
/usr/bin/time -f "wall %e s, max rss %M KiB" "$pack/bench/apps/aes" --device "$gpu" $args \
  >"$out/native.log" 2>&1
for defer in mprotect copy; do
  /usr/bin/time -f "wall %e s, max rss %M KiB" env LD_PRELOAD="$pack/lib/libsplit.so" \
    LIBSPLIT_CC="$pack/bin/libsplit-cc" LIBSPLIT_DEVICES="$devices" LIBSPLIT_TUNING=off \
    LIBSPLIT_DEFER=$defer LIBSPLIT_SUMMARY=1 LIBSPLIT_DEBUG=compile \
    LIBSPLIT_TIMELINE="$out/timeline-$defer.json" LIBSPLIT_TRACE="$out/trace-$defer.jsonl" \
    "$pack/bench/apps/aes" --device "$gpu" $args >"$out/libsplit-$defer.log" 2>&1
done
tail -n 3 "$out"/*.log
