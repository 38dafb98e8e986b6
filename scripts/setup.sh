#!/usr/bin/env bash
# Makes the tree ready to use on a Debian 12 machine: installs the Debian packages that are
# missing, configures and builds. Idempotent, and quick (a few seconds) when all is in place.
#
#   scripts/setup.sh              build into build/
#   scripts/setup.sh --sanitize   build with AddressSanitizer + UBSan into build-sanitize/
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$root/build"
cmake_args=()
case "${1:-}" in
  "") ;;
  --sanitize) build_dir="$root/build-sanitize"; cmake_args+=(-DLIBSPLIT_SANITIZE=ON) ;;
  *) echo "usage: scripts/setup.sh [--sanitize]" >&2; exit 2 ;;
esac

# Every dependency is a Debian 12 package; cmake/LibsplitDependencies.cmake says who needs what.
packages=(
  cmake ninja-build g++ git
  llvm-16-dev llvm-16-tools libclang-16-dev clang-16
  opencl-headers ocl-icd-opencl-dev pocl-opencl-icd clinfo
  libeigen3-dev libsigsegv-dev catch2
  python3 python3-matplotlib
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install packages" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

mkdir -p "$build_dir"
if [ ! -f "$build_dir/build.ninja" ]; then
  echo "setup: configuring $build_dir"
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cmake_args[@]}" \
    >"$build_dir/configure.log" 2>&1 || { cat "$build_dir/configure.log" >&2; exit 1; }
fi
# Ninja's progress lines go to the log only; errors are shown in full.
if ! cmake --build "$build_dir" -j "$(nproc)" >"$build_dir/build.log" 2>&1; then
  grep -v '^\[[0-9]*/[0-9]*\]' "$build_dir/build.log" >&2
  echo "setup: build failed (full log: $build_dir/build.log)" >&2
  exit 1
fi
