#!/usr/bin/env bash
# An A/B of the host cost per launch and of whole runs on the GPU machine, in one session: the
# packed build (build-gpu/) against another build's library (BASELINE_LIB, default
# build-gpu/baseline/libsplit.so), plus NVIDIA's own cost of what libsplit asks of it (events,
# profiling queues). Writes machine.txt, native-variants.txt, overhead.txt (every device),
# overhead-gpus.txt (LIBSPLIT_DEVICES=gpu) and runs.csv into OUT.
#
#   OUT=dir [LIST=bench/gpu/whole-runs.txt] [ROUNDS=3] bench/gpu/ab_run.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pack=${PACK:-$root/build-gpu}
out=${OUT:?OUT names the output folder}
baseline=${BASELINE_LIB:-$pack/baseline/libsplit.so}
mkdir -p "$out"
clinfo -l 2>/dev/null | grep -q NVIDIA || echo /usr/lib/libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
[ -x "$pack/bin/libsplit-cc" ] || { xz -dk "$pack/bin/libsplit-cc.xz" && chmod +x "$pack/bin/libsplit-cc"; }
{ echo "cores: $(nproc)"; nvidia-smi -L; "$pack/bin/libsplit" --list-devices; } >"$out/machine.txt" 2>&1
gpus=$("$pack/bin/libsplit" --list-devices | awk '$2 == "gpu" {print $1}' | paste -sd,)
first=${gpus%%,*}
tool=$pack/bench/launch_overhead
for round in $(seq "${ROUNDS:-3}"); do
  for variant in "0 0" "1 0" "0 1" "1 1"; do
    set -- $variant
    echo "event=$1 profiling=$2 $("$tool" --device "$first" --launches 10000 --event "$1" --profiling "$2")"
  done
done >"$out/native-variants.txt"
# Every device (the GPUs and the CPU: what a user gets), then the GPUs alone.
bash "$root/bench/tools/overhead_table.sh" --build "$pack" --rounds "${ROUNDS:-3}" \
  --app-device "$first" --devices "$gpus" --baseline-lib "$baseline" -- --launches 5000 \
  >"$out/overhead.txt" 2>&1
LIBSPLIT_DEVICES=gpu bash "$root/bench/tools/overhead_table.sh" --build "$pack" \
  --rounds "${ROUNDS:-3}" --app-device "$first" --devices "$gpus" --baseline-lib "$baseline" \
  -- --launches 5000 >"$out/overhead-gpus.txt" 2>&1
CONFIGS="native default baseline" BASELINE_LIB=$baseline LIST=${LIST:-$root/bench/gpu/whole-runs.txt} \
  bash "$root/bench/gpu/whole_runs.sh" >"$out/runs.csv" 2>"$out/runs.err"
