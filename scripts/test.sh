#!/usr/bin/env bash
# The whole test suite: sets up what is missing (scripts/setup.sh), then runs ctest.
# Extra arguments go to ctest (e.g. -L unit, -R e2e.stencil2d).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root/build"
exec ctest --output-on-failure -j "$(nproc)" "$@"
