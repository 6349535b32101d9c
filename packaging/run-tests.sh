#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds, and runs the whole test suite (CTest).
# This is the test command README.md gives, and what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/setup-debian.sh
bash packaging/build.sh dev
export QT_QPA_PLATFORM=offscreen
ctest --preset dev --output-on-failure "$@"
