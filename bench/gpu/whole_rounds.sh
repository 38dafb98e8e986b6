#!/usr/bin/env bash
# Whole runs in rounds: bench/gpu/whole_runs.sh over the list again each round, each round's
# configurations starting one further on (ROTATE), its rows prefixed with the round's number
# (what bench/results/table.py reads: medians over the rounds). A device call has a time limit:
# STOP_AFTER seconds from the start, no further app begins (whole_runs.sh's rule), and no round
# begins after ROUND_STOP seconds (default STOP_AFTER less the last round's length).
#
#   ROUNDS=3 CONFIGS="native default" LIST=bench/gpu/whole-runs.txt STOP_AFTER=540 \
#     bench/gpu/whole_rounds.sh > runs.csv
# Other variables (PACK, GPU_DEVICE, BASELINE_LIB, ...) are whole_runs.sh's.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
echo "round,app,args,config,app_seconds,wall_seconds,status,moved_bytes,probe_launches"
last=0
for round in $(seq "${ROUNDS:-3}"); do
  if [ -n "${STOP_AFTER:-}" ]; then
    round_stop=${ROUND_STOP:-$((STOP_AFTER - last))}
    if [ "$SECONDS" -ge "$round_stop" ]; then
      echo "# stopped before round $round: $SECONDS s" >&2
      break
    fi
  fi
  began=$SECONDS
  ROTATE=$round STOP_AFTER=${STOP_AFTER:+$((STOP_AFTER - SECONDS))} "$here/whole_runs.sh" |
    tail -n +2 | sed "s/^/$round,/"
  last=$((SECONDS - began))
done
