#!/usr/bin/env bash
# Configures and builds with the given CMake preset (default: dev). Binaries land in build/bin/.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-dev}"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
