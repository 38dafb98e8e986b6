#!/usr/bin/env bash
# Interleaved rounds of one app under several configurations, timed by the app's own timer: an
# A/B where a single run of each is within the machine's noise (the CI pair's shared cores).
#
#   APP=build/bench/apps/cfd APPARGS="--device 0:1 --n 4096 --steps 200" RAW=rounds.txt \
#     bench/tools/rounds.sh ROUNDS native LIB VAR=VALUE,VAR2=VALUE@LIB ...
#
# A configuration is native (the app alone), the path of a libsplit.so (preloaded), or
# VARS@LIB (preloaded, with those variables set; VARS@ with no library: natively, with them).
# TASKSET=CPUS among the variables runs the app under taskset -c CPUS instead (pinned to those
# CPUs). Each round runs the configurations in turn from a different one (round 2 starts with
# the second; ROTATE=0: in the order given every round). RAW (default rounds.txt) gets one line
# per round: the seconds of each configuration, in the order given; the medians follow on
# stdout, with each configuration's ratio to the first one's. CSV=FILE also writes
# ROUND,NAME,SECONDS rows there (what bench/results/rounds_table.py reads), NAMES="native
# default ..." naming the configurations in order (default: the configurations as given).
# WARM=DIR runs each libsplit
# configuration as a user's successive runs: with LIBSPLIT_TUNING=save and a warm-start cache of
# its own, DIR/<its position>, emptied first (round 1 is a first run, round N the Nth; a
# configuration's own LIBSPLIT_TUNING or LIBSPLIT_CACHE_DIR still wins). LIBSPLIT_CC (default
# build/bin/libsplit-cc), POCL_DEVICES (default "basic pthread") and LIBSPLIT_TUNING (default
# off) apply to every run.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rounds=${1:?usage: rounds.sh ROUNDS CONFIG...}
shift
app=${APP:?APP names the binary to run}
read -ra args <<<"${APPARGS:-}"
raw=${RAW:-rounds.txt}
read -ra names <<<"${NAMES:-$*}"
if [ "${#names[@]}" -ne "$#" ]; then
  echo "rounds.sh: NAMES has ${#names[@]} names for $# configurations" >&2
  exit 2
fi
[ -n "${CSV:-}" ] && : >"$CSV"
export LIBSPLIT_CC=${LIBSPLIT_CC:-$root/build/bin/libsplit-cc}
export POCL_DEVICES=${POCL_DEVICES:-basic pthread} LIBSPLIT_TUNING=${LIBSPLIT_TUNING:-off}
seconds() { "$@" "$app" "${args[@]}" 2>&1 | sed -n 's/.* in \([0-9.e+-]*\) s[;,].*/\1/p' | tail -1; }
: >"$raw"
if [ -n "${WARM:-}" ]; then
  mkdir -p "$WARM"
  for position in $(seq "$#"); do
    rm -rf "${WARM:?}/$position"
  done
fi
configs=("$@")
for round in $(seq "$rounds"); do
  line=()
  for step in $(seq 0 $(($# - 1))); do
    # Each round starts one configuration further on (ROTATE=0: always the first), so that a
    # configuration does not always hold one position in its round (in fixed-order rounds on the
    # CI pair, a round's first run was fast more often, whichever configuration it was).
    index=$step
    [ "${ROTATE:-1}" = 0 ] || index=$(((round - 1 + step) % $#))
    config=${configs[$index]}
    position=$((index + 1))
    warm=()
    [ -n "${WARM:-}" ] && warm=(LIBSPLIT_TUNING=save LIBSPLIT_CACHE_DIR="$WARM/$position")
    case $config in
    native) line[index]="$(seconds env)" ;;
    *@*)
      IFS=, read -ra vars <<<"${config%@*}"
      pin=()
      kept=()
      for var in "${vars[@]}"; do
        case $var in
        TASKSET=*) pin=(taskset -c "${var#TASKSET=}") ;;
        *) kept+=("$var") ;;
        esac
      done
      preload=()
      [ -n "${config#*@}" ] && preload=("${warm[@]}" LD_PRELOAD="${config#*@}")
      line[index]="$(seconds env "${preload[@]}" "${kept[@]}" "${pin[@]}")"
      ;;
    *) line[index]="$(seconds env "${warm[@]}" LD_PRELOAD="$config")" ;;
    esac
  done
  echo "${line[*]}" >>"$raw"
  if [ -n "${CSV:-}" ]; then
    for i in "${!line[@]}"; do
      echo "$round,${names[$i]},${line[$i]}" >>"$CSV"
    done
  fi
done
python3 - "$raw" "$@" <<'PY'
import statistics, sys
raw, names = sys.argv[1], sys.argv[2:]
rows = [list(map(float, l.split())) for l in open(raw) if len(l.split()) == len(names)]
columns = list(zip(*rows))
first = statistics.median(columns[0])
for name, column in zip(names, columns):
    median = statistics.median(column)
    print(f"{name[-60:]:>60} median {median * 1e3:.3f} ms  min {min(column) * 1e3:.3f}"
          f"  x first {first / median:.3f}  ({len(column)} rounds)")
PY
