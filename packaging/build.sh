#!/usr/bin/env bash
# Configures and builds with the given CMake preset (default: dev): every target, or only the
# targets named after the preset (and what they depend on). Binaries land in build/bin/.
#   bash packaging/build.sh dev                     # everything, the test suite included
#   bash packaging/build.sh dev outlier-explorer    # the desktop app alone (run-demo.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-dev}"
shift $(($# > 0 ? 1 : 0))
targets=()
if [ $# -gt 0 ]; then
  targets=(--target "$@")
fi
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" "${targets[@]}"
