#!/usr/bin/env bash
# One deferred-write hazard check: runs defer_hazards with one scenario, natively or with a
# runtime preloaded, and checks how it ended and what libsplit's summary says.
#
# run_defer_test.sh --exe PATH --scenario NAME [--preload LIBS] [--env NAME=VALUE]...
#                   [--expect-signal N] [--expect-stderr REGEX]... [--timeout SECONDS]
#
# Without --expect-signal the program must exit 0 and print "PASS NAME". With it, it must be
# killed by signal N after printing "crashing now" (a real segmentation fault stays one).
# Each --expect-stderr is an extended regular expression that stderr must match (the summary
# shows how many writes were deferred and how many pages were preserved, and why).
set -uo pipefail

exe= scenario= preload= signal= limit=120
envs=() patterns=()
while [ $# -gt 0 ]; do
  case "$1" in
    --exe) exe=$2; shift 2 ;;
    --scenario) scenario=$2; shift 2 ;;
    --preload) preload=$2; shift 2 ;;
    --env) envs+=("$2"); shift 2 ;;
    --expect-signal) signal=$2; shift 2 ;;
    --expect-stderr) patterns+=("$2"); shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    *) echo "run_defer_test.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$exe" ] && [ -n "$scenario" ] || { echo "run_defer_test.sh: --exe and --scenario are required" >&2; exit 2; }

out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
[ -n "$preload" ] && envs+=("LD_PRELOAD=$preload")
timeout -k 5 "$limit" env "${envs[@]}" "$exe" --device 0:1 --scenario "$scenario" >"$out" 2>"$err"
status=$?

fail() {
  echo "defer: FAIL: $*"
  echo "--- stdout"; cat "$out"
  echo "--- stderr (last 30 lines)"; tail -n 30 "$err"
  exit 1
}

case $status in
  124|137) fail "timed out after ${limit} s (hang)" ;;
esac
if [ -n "$signal" ]; then
  [ $status -eq $((128 + signal)) ] || fail "expected death by signal $signal, got status $status"
  grep -q "^crashing now" "$out" || fail "it did not reach the crash"
else
  [ $status -eq 0 ] || fail "exit status $status"
  grep -q "^PASS $scenario\$" "$out" || fail "no PASS line"
fi
for pattern in "${patterns[@]}"; do
  grep -Eq -- "$pattern" "$err" || fail "stderr does not match: $pattern"
done
echo "defer: PASS: $scenario (status $status)"
grep -E "^libsplit: (host writes|deferred writes)" "$err" || true
