#!/usr/bin/env bash
# The main job, on the default platform: a sample app runs natively on one PoCL device, then the
# same command runs under LD_PRELOAD=libsplit.so with two PoCL devices present; libsplit reports
# what it did and the two outputs are compared byte for byte.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"

build="$root/build"
app="$build/bench/apps/nbody"
args=(--n 4099 --iterations 30)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Two PoCL devices that really run in parallel: "basic" (1 thread) and "pthread" (all cores).
# They are listed grouped by driver, so the app's --device 0:1 is the pthread one.
export POCL_DEVICES="basic pthread"

echo "== native: $(basename "$app") ${args[*]} on one device"
"$app" --device 0:1 "${args[@]}" --output "$work/native.out" | tee "$work/native.log"

echo
echo "== the same command under LD_PRELOAD=$build/lib/libsplit.so"
echo "   (LIBSPLIT_DEBUG=split: one line per launch; LIBSPLIT_SUMMARY=1: totals at exit;"
echo "   LIBSPLIT_TUNING=off: start from scratch rather than from a split saved by an earlier run)"
LIBSPLIT_DEBUG=split LIBSPLIT_SUMMARY=1 LIBSPLIT_TUNING=off LIBSPLIT_TRACE="$work/trace.jsonl" \
  LD_PRELOAD="$build/lib/libsplit.so" "$app" --device 0:1 "${args[@]}" --output "$work/split.out" \
  2>&1 | perl -pe "s/(basic|pthread)-.*?(?=[=']| \(|\s*\$)/\$1/g" | tee "$work/split.log"
# (PoCL's device names go on with the CPU's model: shortened to basic and pthread.)
# A launch record lists one entry per device that ran a slice of it; "split":false marks a launch
# that ran whole on the app's device.
both=$(grep -c '"name":.*"name":' "$work/trace.jsonl" || true)
whole=$(grep -c '"split":false' "$work/trace.jsonl" || true)
echo "   $both of $(wc -l <"$work/trace.jsonl") launches ran on both devices, $whole whole on the app's"
echo "   device: the planner splits a kernel only while splitting measures faster than running it"
echo "   whole (on these two CPU devices, which share the machine's 2 cores, it rarely is)"
echo "   (the devices beyond the app's own open once the app has waited for its device long enough"
echo "   to pay for them, LIBSPLIT_OPEN: the 'opening the split devices' line above)"

echo
echo "== outputs"
"$build/tests/e2e/compare_outputs" f32 0 "$work/native.out" "$work/split.out" --exact

# The app's own timer (its stopwatch around the launches and the final read). Native runs again
# after libsplit's run: on a machine whose cores the devices share, two runs of the same command
# differ by several percent, and the run after another often more (which run goes first
# matters); the two native runs show that spread.
"$app" --device 0:1 "${args[@]}" --output "$work/native-again.out" > "$work/native-again.log"
seconds() { sed -n 's/.* in \([0-9.e+-]*\) s;.*/\1/p' "$1" | tail -1; }
echo
echo "== the app's own timer: native $(seconds "$work/native.log") s, under libsplit" \
  "$(seconds "$work/split.log") s, native again $(seconds "$work/native-again.log") s"
echo "   (one run each; the two native runs show this machine's own spread. Where the planner"
echo "   first tries a split, PoCL compiles libsplit's partition-ready kernels in the background"
echo "   and that launch runs whole meanwhile)"
