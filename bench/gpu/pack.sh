#!/usr/bin/env bash
# Gathers what the GPU machine needs into build-gpu/ (git-ignored), small enough to travel with
# the device tool (64 MiB): stripped binaries, the compiler tool compressed. Needs the build with
# -DLIBSPLIT_CC_STATIC=ON (the GPU machine has no LLVM libraries): CC_BUILD=build-static.
# PERF=1 also packs this machine's perf with the libraries it needs beyond the C library
# ($pack/perf) and libsplit with its symbols ($pack/lib/libsplit-syms.so), for profiles there
# (bench/gpu/offcpu.sh); about 35 MiB more. The apps named in PERF_APPS keep their debug
# information (perf's stacks through a stripped app stopped at the C library).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
pack="$root/build-gpu"
rm -rf "$pack"
mkdir -p "$pack/bin" "$pack/lib" "$pack/bench/apps" "$pack/tests/e2e"
install -s "$build/lib/libsplit.so" "$pack/lib/"
install -s "$build/bin/libsplit" "$pack/bin/"
strip -o "$pack/bin/libsplit-cc" "${CC_BUILD:-$build}/bin/libsplit-cc"
xz -9 -T2 "$pack/bin/libsplit-cc"
install -s "$build/tests/e2e/compare_outputs" "$pack/tests/e2e/"
for app in $(grep -oE '^[a-z0-9_]+' "$root/bench/apps/manifest.txt"); do
  install -s "$build/bench/apps/$app" "$pack/bench/apps/"
done
for tool in launch_overhead startup_phases first_launch link_rates libcall_times.so; do
  [ -x "$build/bench/$tool" ] && install -s "$build/bench/$tool" "$pack/bench/"
done
if [ "${PERF:-0}" = 1 ]; then
  mkdir -p "$pack/perf/lib"
  cp "$(command -v perf)" "$pack/perf/"
  for lib in $(ldd "$(command -v perf)" | awk '/=>/ {print $3}'); do
    case $(basename "$lib") in
    libc.so* | libm.so* | libpthread* | libdl* | librt* | ld-linux*) ;; # the machine's own
    *) cp -L "$lib" "$pack/perf/lib/" ;;
    esac
  done
  objcopy --strip-debug "$build/lib/libsplit.so" "$pack/lib/libsplit-syms.so"
  for app in ${PERF_APPS:-}; do
    install "$build/bench/apps/$app" "$pack/bench/apps/"
  done
fi
du -sh "$pack"
