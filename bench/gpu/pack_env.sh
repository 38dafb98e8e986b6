# Sourced by the GPU machine's scripts (whole_runs.sh, host_gap.sh): the packed binaries
# (PACK, default build-gpu/ from pack.sh), NVIDIA's OpenCL registered where the machine's loader
# lacks it, the compiler tool unpacked, libsplit's controls for first runs, and the first GPU
# (GPU_DEVICE overrides it) in `gpu`.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pack=${PACK:-$root/build-gpu}
if ! clinfo -l 2>/dev/null | grep -q NVIDIA && [ -e /usr/lib/libnvidia-opencl.so.1 ]; then
  echo /usr/lib/libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
[ -f "$pack/bin/libsplit-cc.xz" ] && [ ! -x "$pack/bin/libsplit-cc" ] &&
  xz -dk "$pack/bin/libsplit-cc.xz" && chmod +x "$pack/bin/libsplit-cc"
export LIBSPLIT_CC=$pack/bin/libsplit-cc LIBSPLIT_TUNING=off
gpu=${GPU_DEVICE:-$("$pack/bin/libsplit" --list-devices | awk '$2 == "gpu" {print $1; exit}')}
