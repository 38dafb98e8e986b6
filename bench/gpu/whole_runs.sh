#!/usr/bin/env bash
# Whole runs as a user sees them (the "never slower" issue): each app natively on the first GPU,
# then under libsplit with default settings on every device, then with LIBSPLIT_SPLIT=always (every
# launch that can split does: libsplit before the planner's split guard); CONFIGS may add gpus
# (LIBSPLIT_DEVICES=gpu), gpusN (the first N GPUs: scaling), disabled (LIBSPLIT_DISABLE=1: the
# preload alone), baseline (another build's library, BASELINE_LIB, default settings: an A/B on one
# machine; BASELINE_CC: that build's libsplit-cc, where its summary format differs), first and
# second (default settings with the warm start on, as a user has it: first starts with no saved
# tuning, second is the next run, from what first saved), nochunk (default settings but
# LIBSPLIT_CHUNK=off: no launch runs in chunks), forced (every launch that can split does, on every
# device, opened at once: LIBSPLIT_SPLIT=always LIBSPLIT_OPEN=now), baseline-forced (the same with
# BASELINE_LIB), gpus-forced and baseline-gpus-forced (the same on the GPUs alone: the "two GPUs" of
# the issues' targets) and gpus-even (every launch split evenly across the GPUs alone, opened at
# once: the split itself, without the balancer's search and probes). NAME@VAR=VALUE is configuration
# NAME with VAR=VALUE set too (gpus-forced@LIBSPLIT_OVERLAP=0; NAME@A=1@B=2 sets both). One CSV row
# per run: app, arguments, configuration, the app's own timer, the process wall time, exit status,
# the bytes its launches moved (every device's in and out, from libsplit's trace, for the forced
# configurations and always only: a trace measures every launch, which costs short launches their
# pipelining) and, from the same trace, how many of its launches were the balancer's probes.
#
#   LIST=bench/gpu/whole-runs.txt DEVICES=all bench/gpu/whole_runs.sh > runs.csv
# LIST lines: app | arguments (blank lines and # comments skipped). STOP_AFTER=S: no app starts
# once the script has run S seconds (a device call's limit then cuts no app's rows short).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/pack_env.sh"
configs=${CONFIGS:-native default always}
# The baseline's own kernel compiler (BASELINE_CC), where its summaries' format differs.
baseline_cc=()
[ -n "${BASELINE_CC:-}" ] && baseline_cc=(LIBSPLIT_CC="$BASELINE_CC")
# ROTATE=K (a round's number, where rounds call this script over again): each app runs the
# configurations from the (K mod count)-th on, wrapping round, so that no configuration always
# runs first (on the CI pair a round's first run was fast more often). Not with first and second,
# whose order matters.
read -ra config_list <<<"$configs"
shift_by=$((${ROTATE:-0} % ${#config_list[@]}))
configs="${config_list[*]:shift_by} ${config_list[*]:0:shift_by}"
echo "app,args,config,app_seconds,wall_seconds,status,moved_bytes,probe_launches"
trace=$(mktemp)
while IFS='|' read -r app args; do
  app=$(echo "$app" | tr -d ' ')
  [[ "$app" =~ ^[a-z] ]] || continue
  # A device call ends at its limit, the rows of the app it cut short lost: STOP_AFTER seconds
  # from the script's start, no further app begins (what ran stays, and says where it stopped).
  if [ -n "${STOP_AFTER:-}" ] && [ "$SECONDS" -ge "$STOP_AFTER" ]; then
    echo "# stopped before $app $args: STOP_AFTER=$STOP_AFTER s reached" >&2
    break
  fi
  read -ra argv <<<"$args"
  # Warm the compilers' caches (NVIDIA's and libsplit's), as a user's second run would find them.
  "$pack/bench/apps/$app" --device "$gpu" "${argv[@]}" >/dev/null 2>&1
  LD_PRELOAD=$pack/lib/libsplit.so "$pack/bench/apps/$app" --device "$gpu" "${argv[@]}" \
    >/dev/null 2>&1
  for named in $configs; do
    # NAME@VAR=VALUE: configuration NAME with one more variable set (an A/B of a control).
    config=${named%%@*}
    env=()
    case $config in
    native) ;;
    default) env=(LD_PRELOAD=$pack/lib/libsplit.so) ;;
    always) env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_SPLIT=always) ;;
    nochunk) env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_CHUNK=off) ;;
    gpus) env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_DEVICES=gpu) ;;
    disabled) env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_DISABLE=1) ;;
    baseline) env=(LD_PRELOAD=${BASELINE_LIB:?baseline needs BASELINE_LIB} "${baseline_cc[@]}") ;;
    forced) env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_SPLIT=always LIBSPLIT_OPEN=now) ;;
    gpus-even)
      env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_DEVICES=gpu LIBSPLIT_BALANCER=uniform
        LIBSPLIT_OPEN=now) ;;
    baseline-forced)
      env=(LD_PRELOAD=${BASELINE_LIB:?baseline needs BASELINE_LIB} "${baseline_cc[@]}"
        LIBSPLIT_SPLIT=always LIBSPLIT_OPEN=now) ;;
    gpus-forced)
      env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_DEVICES=gpu LIBSPLIT_SPLIT=always
        LIBSPLIT_OPEN=now) ;;
    baseline-gpus-forced)
      env=(LD_PRELOAD=${BASELINE_LIB:?baseline needs BASELINE_LIB} "${baseline_cc[@]}"
        LIBSPLIT_DEVICES=gpu LIBSPLIT_SPLIT=always LIBSPLIT_OPEN=now) ;;
    first)
      rm -rf "${LIBSPLIT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/libsplit}/tuning"
      env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_TUNING=save) ;;
    second) env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_TUNING=save) ;;
    gpus[0-9]*)
      env=(LD_PRELOAD=$pack/lib/libsplit.so LIBSPLIT_DEVICES=$("$pack/bin/libsplit" --list-devices |
        awk '$2 == "gpu" {print $1}' | head -n "${config#gpus}" | paste -sd,)) ;;
    esac
    rm -f "$trace"
    # Tracing costs each launch its measurement: only where the split itself is studied.
    if [ "$named" != "$config" ]; then
      IFS=@ read -ra more <<<"${named#*@}"
      env+=("${more[@]}")
    fi
    case $config in *forced | always) env+=(LIBSPLIT_TRACE="$trace") ;; esac
    start=$EPOCHREALTIME
    log=$(env "${env[@]}" timeout "${RUN_TIMEOUT:-120}" "$pack/bench/apps/$app" --device "$gpu" "${argv[@]}" 2>&1)
    status=$?
    wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f", b - a }')
    seconds=$(echo "$log" | sed -n 's/.* in \([0-9.e+-]*\) s;.*/\1/p' | tail -1)
    moved=$([ -s "$trace" ] && python3 -c '
import json, sys
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print("%d,%d" % (sum(d.get("bytes_in", 0) + d.get("bytes_out", 0)
                     for r in records for d in r["devices"]),
                 sum(str(r.get("purpose", "")).startswith("probe") for r in records)))
' "$trace")
    echo "$app,\"$(echo "${argv[*]}")\",$named,${seconds:-nan},$wall,$status,${moved:-,}"
  done
done <"${LIST:-$root/bench/gpu/whole-runs.txt}"
rm -f "$trace"
