#!/usr/bin/env bash
# Everything the GPU benchmarks need from the GPU machine, in one run (device time is scarce): machine
# facts, the sample apps' correctness under libsplit on NVIDIA + PoCL, and the benchmark driver.
# Writes into $OUT (the device tool brings it back). Built binaries come from build-gpu/, made on
# the developer machine by bench/gpu/pack.sh.
#
#   bench/gpu/run_gpu.sh [--quick]    (--quick: correctness only, smallest sizes)
#   PARTS="e2e gpus gpus-cpu" (default: all three) selects the parts, to fit the device tool's
#   10-minute calls.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
quick=${1:-}
pack="$root/build-gpu"
exec > >(tee "$out/run.log") 2>&1

# NVIDIA's ICD may be unregistered on a fresh machine (shared/notes/platform-facts.md).
if ! clinfo -l 2>/dev/null | grep -q NVIDIA && [ -e /usr/lib/libnvidia-opencl.so.1 ]; then
  echo /usr/lib/libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
[ -f "$pack/bin/libsplit-cc.xz" ] && [ ! -x "$pack/bin/libsplit-cc" ] &&
  xz -dk "$pack/bin/libsplit-cc.xz" && chmod +x "$pack/bin/libsplit-cc"

{
  date -u
  uname -a
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
  lscpu | grep -E 'Model name|^CPU\(s\)|Socket'
  clinfo -l
  clinfo 2>/dev/null | grep -E 'Platform Version|Driver Version|Device Name' | sort -u
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"
"$pack/bin/libsplit" --list-devices | tee "$out/devices.txt"

# Platform and device of the first GPU, as the apps' default choice would pick it.
gpu=${GPU_DEVICE:-$(awk '$2 == "gpu" {print $1; exit}' "$out/devices.txt")}
echo "first GPU: ${gpu:-none}"

# Correctness: each app natively on the first GPU, then under libsplit on every device with
# the uniform balancer (every launch split evenly, so data crosses between the GPU's and the
# CPU's memories at every launch; the adaptive balancers would leave a CPU this much slower out);
# the outputs must agree within the app's tolerance (NVIDIA and a CPU may round differently).
parts=${PARTS:-e2e gpus gpus-cpu}
status=0
[[ " $parts " == *" e2e "* ]] && while IFS='|' read -r name type tolerance sets; do
  name=$(echo "$name" | tr -d ' ')
  [[ "$name" =~ ^[a-z] ]] || continue
  IFS=';' read -ra argsets <<<"$sets"
  pick=1
  [ "$quick" = --quick ] && pick=0
  read -ra args <<<"${argsets[$pick]}"
  dir="$out/e2e/$name"
  mkdir -p "$dir"
  "$pack/bench/apps/$name" --device "$gpu" "${args[@]}" --output "$dir/native.out" \
    >"$dir/native.log" 2>&1
  n=$?
  LIBSPLIT_TRACE="$dir/trace.jsonl" LIBSPLIT_SUMMARY=1 LIBSPLIT_TUNING=off \
    LIBSPLIT_BALANCER=${E2E_BALANCER:-uniform} \
    LD_PRELOAD="$pack/lib/libsplit.so" "$pack/bench/apps/$name" --device "$gpu" "${args[@]}" \
    --output "$dir/split.out" >"$dir/split.log" 2>&1
  s=$?
  verdict=$("$pack/tests/e2e/compare_outputs" "$(echo "$type" | tr -d ' ')" \
    "$(echo "$tolerance" | tr -d ' ')" "$dir/native.out" "$dir/split.out" 2>&1)
  c=$?
  splits=$(grep -c '"name":.*"name":' "$dir/trace.jsonl" 2>/dev/null || true)
  echo "e2e $name ${args[*]}: native=$n libsplit=$s compare=$c launches_on_2_devices=$splits; $verdict" |
    tee -a "$out/e2e.txt"
  [ $n -eq 0 ] && [ $s -eq 0 ] && [ $c -eq 0 ] || status=1
done <"$root/bench/apps/manifest.txt"

if [ "$quick" != --quick ] && [ -x "$root/bench/run" ]; then
  # GPU-sized argument sets.
  manifest="$root/bench/gpu/manifest-h200.txt"
  gpus=$(awk '$2 == "gpu" {printf "%s%s", sep, $1; sep=","}' "$out/devices.txt")
  # (a) the GPUs together; (b) the GPUs and the CPU. Native runs: each GPU alone (the CPU alone
  # would take minutes per run at these sizes: calibrate.sh measured it at smaller ones).
  if [[ " $parts " == *" gpus "* ]]; then
    /usr/bin/python3 "$root/bench/run" --manifest "$manifest" --build-dir "$pack" \
      --out "$out/bench-gpus" --sizes 0 \
      --repeat ${REPEAT:-2} --sweep-step 0.2 --refine 1 --native-devices "$gpus" \
      --env "LIBSPLIT_CC=$pack/bin/libsplit-cc" --env LIBSPLIT_DEVICES=gpu ${BENCH_ARGS:-} ||
      status=1
  fi
  if [[ " $parts " == *" gpus-cpu "* ]]; then
    /usr/bin/python3 "$root/bench/run" --manifest "$manifest" --build-dir "$pack" \
      --out "$out/bench-gpus-cpu" --sizes 0 \
      --repeat ${REPEAT:-2} --strategies fixedpoint,broyden --native-devices "$gpus" \
      --env "LIBSPLIT_CC=$pack/bin/libsplit-cc" --env LIBSPLIT_DEVICES=all ${BENCH_ARGS:-} ||
      status=1
  fi
fi
# Few files travel back: the traces and logs go in one archive.
details=$(cd "$out" && ls -d e2e bench-*/runs 2>/dev/null)
[ -n "$details" ] && tar -C "$out" -czf "$out/details.tar.gz" $details && (cd "$out" && rm -rf $details)
echo "run_gpu: exit $status"
exit $status
