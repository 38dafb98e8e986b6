#!/usr/bin/env bash
# Whether a first run of a long two-kernel stencil gets to its split (issue "faster on real
# applications"): jacobi2d 16384 x 3000 with the split devices opened from its queued launches
# (LIBSPLIT_OPEN=auto, the default since 64357d5), once with the split guard's debug lines (its
# spread probe, the kernels that join it, decisions made again as the executor runs them), then
# native, default, the warm start's first and second runs, and the devices opened by waits alone
# (LIBSPLIT_OPEN=waited, the default before), over LIST (default: the stencil and fdtd2d 8192 x
# 1500).
#
#   bench/gpu/stencil_split.sh OUT_DIR      (binaries from build-gpu/, pack.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/pack_env.sh"
out=${1:?usage: stencil_split.sh OUT_DIR}
mkdir -p "$out"
LIBSPLIT_DEBUG=split LIBSPLIT_SUMMARY=1 LD_PRELOAD=$pack/lib/libsplit.so \
  "$pack/bench/apps/jacobi2d" --device "$gpu" --n 16384 --iterations 3000 >"$out/debug.txt" 2>&1
grep -E "spread probe|joins spread|decided again|probing|measuring the other way" "$out/debug.txt" |
  head -20
grep -E "^libsplit:   jacobi2d|PASS|FAIL" "$out/debug.txt"
gzip -f "$out/debug.txt"
list=${LIST:-$(mktemp)}
if [ -z "${LIST:-}" ]; then
  printf '%s\n' "jacobi2d | --n 16384 --iterations 3000" \
    "fdtd2d | --nx 8192 --ny 8192 --steps 1500" >"$list"
fi
LIST=$list CONFIGS="native default first second default@LIBSPLIT_OPEN=waited" RUN_TIMEOUT=${RUN_TIMEOUT:-100} \
  "$root/bench/gpu/whole_runs.sh" >"$out/runs.csv" 2>"$out/stderr.txt"
cat "$out/runs.csv"
