#!/usr/bin/env bash
# One API-semantics check: run a transcript program natively, then the same command with a runtime
# preloaded (libsplit.so), with the same environment and arguments, and compare the transcripts.
#
# run_api_test.sh --exe PATH --preload LIB --workdir DIR [--timeout SECONDS] [--env NAME=VALUE]...
#                 -- PROGRAM_ARGS...
#
# Each run is bounded by --timeout (default 25 s) so that a hang fails the test instead of
# stalling the suite. The exit status is appended to each transcript, so a crash or a hang shows
# up in the diff at the point where the transcript stops. The native run must exit 0: anything
# else means the program itself is broken, not the runtime under test.
set -uo pipefail

exe= preload= workdir= limit=25
envs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --exe) exe=$2; shift 2 ;;
    --preload) preload=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --env) envs+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "run_api_test.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for required in exe preload workdir; do
  [ -n "${!required}" ] || { echo "run_api_test.sh: --$required is required" >&2; exit 2; }
done

rm -rf "$workdir" && mkdir -p "$workdir"
echo "api: env ${envs[*]}"
echo "api: $exe $*"

# Runs the program with the common environment plus any extra NAME=VALUE given first; writes
# NAME.txt (transcript + exit line) and NAME.err (stderr). Returns the program's exit status.
run() {
  local name=$1; shift
  # -k: a program that ignores SIGTERM (a wedged runtime) is killed 2 s later.
  timeout -k 2 "$limit" env "${envs[@]}" "$@" "$exe" "${ARGS[@]}" \
    >"$workdir/$name.txt" 2>"$workdir/$name.err"
  local status=$?
  case $status in
    0) ;;
    124|137) echo "exit: timeout after ${limit} s (hang)" >>"$workdir/$name.txt" ;;
    *) if [ $status -gt 128 ]; then
         echo "exit: killed by signal $((status - 128))" >>"$workdir/$name.txt"
       else
         echo "exit: $status" >>"$workdir/$name.txt"
       fi ;;
  esac
  return $status
}

ARGS=("$@")
run native
native_status=$?
if [ $native_status -ne 0 ]; then
  echo "api: FAIL: the native run exited with $native_status; the program itself is broken"
  sed 's/^/  native | /' "$workdir/native.txt" "$workdir/native.err"
  exit 1
fi

run split LD_PRELOAD="$preload"
split_status=$?

if diff -u --label native "$workdir/native.txt" --label libsplit "$workdir/split.txt" \
    >"$workdir/diff.txt"; then
  echo "api: PASS: $(wc -l <"$workdir/native.txt") transcript lines identical"
  exit 0
fi
echo "api: FAIL: the transcripts differ (native exit 0, libsplit exit $split_status)"
cat "$workdir/diff.txt"
if [ -s "$workdir/split.err" ]; then
  echo "api: stderr under libsplit (last 20 lines):"
  tail -n 20 "$workdir/split.err" | sed 's/^/  split  | /'
fi
exit 1
