#!/usr/bin/env bash
# Where one app's whole-run time goes under libsplit on the GPU machine: the app natively on the
# GPU (wall time too), then under libsplit with the timeline, the trace, the summary and the
# compile log, for each device set in DEVICES and each LIBSPLIT_UPLOAD mode in UPLOADS, ROUNDS
# times (default 2; the last round's files are kept: the drivers compile kernels lazily at their
# first launch and cache them on disk, so a first round on a fresh machine pays for the JIT).
# LIBSPLIT_SO: another libsplit.so to preload (A/B comparisons). Writes into $OUT/inspect-APP
# (logs, traces, timelines; the app's outputs are not kept).
#
#   APP=aes APP_ARGS="--blocks 67108864 --iterations 10" DEVICES="all gpu" \
#     UPLOADS="auto at-launch" bench/gpu/inspect_app.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pack="$root/build-gpu"
app=${APP:?APP names a sample app}
read -ra args <<<"${APP_ARGS:-}"
out=${OUT:-$root/gpu-out}/inspect-$app
mkdir -p "$out"
gpu=${GPU_DEVICE:-1:0}
[ -f "$pack/bin/libsplit-cc.xz" ] && [ ! -x "$pack/bin/libsplit-cc" ] &&
  xz -dk "$pack/bin/libsplit-cc.xz" && chmod +x "$pack/bin/libsplit-cc"
for round in $(seq "${ROUNDS:-2}"); do
/usr/bin/time -f "wall %e s, max rss %M KiB" "$pack/bench/apps/$app" --device "$gpu" "${args[@]}" \
  >"$out/native.log" 2>&1
for devices in ${DEVICES:-all gpu}; do
  for upload in ${UPLOADS:-auto}; do
    run="$devices-$upload"
    /usr/bin/time -f "wall %e s, max rss %M KiB" env LD_PRELOAD="${LIBSPLIT_SO:-$pack/lib/libsplit.so}" \
      LIBSPLIT_CC="$pack/bin/libsplit-cc" LIBSPLIT_DEVICES="$devices" LIBSPLIT_TUNING=off \
      LIBSPLIT_UPLOAD="$upload" LIBSPLIT_SUMMARY=1 LIBSPLIT_DEBUG=compile \
      LIBSPLIT_TIMELINE="$out/timeline-$run.json" LIBSPLIT_TRACE="$out/trace-$run.jsonl" \
      "$pack/bench/apps/$app" --device "$gpu" "${args[@]}" >"$out/libsplit-$run.log" 2>&1
  done
done
done
grep -H -E "PASS|FAIL|wall" "$out"/*.log
