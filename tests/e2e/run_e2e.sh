#!/usr/bin/env bash
# One end-to-end check: run a sample app natively on one device, then the same command with a
# runtime preloaded (libsplit.so), and compare the two output files.
#
# run_e2e.sh --app PATH --type f32|f64|i32|u32 --tolerance X --preload LIB --workdir DIR
#            --compare PATH [--exact] [--expect-mismatch] [--expect-split] [--expect-early]
#            [--env NAME=VALUE]... -- APP_ARGS...
#
# Both runs get the same environment and arguments; only LD_PRELOAD differs. The test passes when
# both exit 0 and the outputs match (byte for byte with --exact, else within the tolerance).
# --expect-mismatch inverts the verdict on the outputs: it is how the harness checks itself with a
# runtime that is broken on purpose (the preloaded run's own exit status is then ignored).
# --expect-split fails the test unless libsplit's trace shows at least one launch really split
# across devices, so a runtime that silently ran everything on one device cannot pass.
# --expect-early fails it unless some split launch queued a slice's interior before the bytes its
# device lacked arrived (LIBSPLIT_OVERLAP: a stencil's halo).
set -uo pipefail

app= type= tolerance= preload= workdir= compare= exact= expect_mismatch= expect_split= expect_early=
envs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --app) app=$2; shift 2 ;;
    --type) type=$2; shift 2 ;;
    --tolerance) tolerance=$2; shift 2 ;;
    --preload) preload=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    --compare) compare=$2; shift 2 ;;
    --exact) exact=--exact; shift ;;
    --expect-mismatch) expect_mismatch=1; shift ;;
    --expect-split) expect_split=1; shift ;;
    --expect-early) expect_early=1; shift ;;
    --env) envs+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "run_e2e.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for required in app type tolerance preload workdir compare; do
  [ -n "${!required}" ] || { echo "run_e2e.sh: --$required is required" >&2; exit 2; }
done

rm -rf "$workdir" && mkdir -p "$workdir"
echo "e2e: env ${envs[*]}"
echo "e2e: $app $*"


env "${envs[@]}" "$app" "$@" --output "$workdir/native.out" >"$workdir/native.log" 2>&1
native_status=$?
sed 's/^/  native | /' "$workdir/native.log"
if [ $native_status -ne 0 ]; then
  echo "e2e: FAIL: the native run exited with $native_status"
  exit 1
fi

env "${envs[@]}" LD_PRELOAD="$preload" LIBSPLIT_TRACE="$workdir/trace.jsonl" "$app" "$@" \
  --output "$workdir/split.out" >"$workdir/split.log" 2>&1
split_status=$?
sed 's/^/  split  | /' "$workdir/split.log"

"$compare" "$type" "$tolerance" "$workdir/native.out" "$workdir/split.out" $exact
compare_status=$?

if [ -n "$expect_mismatch" ]; then
  if [ $compare_status -eq 1 ]; then
    echo "e2e: PASS: the harness caught the broken runtime's wrong output"
    exit 0
  fi
  echo "e2e: FAIL: the broken runtime's output was not caught (compare exited $compare_status)"
  exit 1
fi
if [ $split_status -ne 0 ]; then
  echo "e2e: FAIL: the run under $(basename "$preload") exited with $split_status"
  exit 1
fi
[ $compare_status -eq 0 ] || { echo "e2e: FAIL: outputs differ"; exit 1; }
if [ -n "$expect_split" ]; then
  # A record lists one entry per device that ran a slice: two names, two devices or more.
  splits=$(grep -c '"name":.*"name":' "$workdir/trace.jsonl" 2>/dev/null || true)
  launches=$(wc -l <"$workdir/trace.jsonl" 2>/dev/null || echo 0)
  echo "e2e: $splits of $launches launches ran on two devices or more"
  [ "${splits:-0}" -gt 0 ] || { echo "e2e: FAIL: no launch ran on two devices"; exit 1; }
fi
if [ -n "$expect_early" ]; then
  # A slice that lacked bytes and queued part of its groups before they came (LIBSPLIT_OVERLAP).
  early=$(/usr/bin/python3 -c '
import json, sys
print(sum(any(0 < d.get("early_groups", 0) < d["groups"] for d in r.get("devices", []))
          for r in map(json.loads, open(sys.argv[1])) if r.get("split")))' "$workdir/trace.jsonl")
  echo "e2e: $early launches queued a slice's interior before its missing bytes came"
  [ "${early:-0}" -gt 0 ] || { echo "e2e: FAIL: no slice ran its interior early"; exit 1; }
fi
echo "e2e: PASS"
