#!/usr/bin/env bash
# Installs FerretDB v1.24.2 (the MongoDB-wire-compatible test server, SQLite backend) into a per-machine cache,
# building it from the Go module proxy once; later runs only check the cached binary.
# Non-interactive and idempotent. Messages go to stderr; the last (only) line on stdout is the binary's path:
#   ferretdb=$(bash packaging/install-ferretdb.sh | tail -n 1)
# Cache: ${OE_CACHE_DIR:-$HOME/.cache/outlier-explorer}/ferretdb-v1.24.2/ferretdb. Needs Go >= 1.21 (install-go.sh; the go
# command fetches the 1.24 toolchain FerretDB asks for by itself when the local one is older).
set -euo pipefail

version=v1.24.2
module=github.com/FerretDB/FerretDB
package=$module/cmd/ferretdb
cache_root="${OE_CACHE_DIR:-$HOME/.cache/outlier-explorer}"
dest_dir="$cache_root/ferretdb-$version"
dest="$dest_dir/ferretdb"

say() { echo "install-ferretdb: $*" >&2; }
# shellcheck source=packaging/install-lib.sh
source "$(dirname "$0")/install-lib.sh"

# True when $1 is a FerretDB binary that starts and reports $version. The output is read whole
# first: `--version | head -n 1 | grep -q` under pipefail failed about 3 times in 20 by SIGPIPE
# (FerretDB still writing when head had closed the pipe) although the version was right.
works() {
  local out
  [ -x "$1" ] || return 1
  out="$(output_of "$1" --version)" || return 1
  [ "${out%%$'\n'*}" = "version: $version" ]
}

install_prelude "$dest" "$dest_dir" 1200

# A Go >= 1.21 (Debian 12's own is 1.19): install-go.sh finds or fetches one.
go_cmd="$(bash "$(dirname "$0")/install-go.sh" | tail -n 1)" || { say "error: no Go toolchain >= 1.21 to build FerretDB $version"; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/oe-ferretdb-build.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GOWORK=off DO_NOT_TRACK=1
run_go() { nice -n 10 "$go_cmd" "$@"; }
first_error() { grep -m 1 -v '^[[:space:]]*$' "$1" | sed 's/^[[:space:]]*//' | cut -c 1-300; }

say "building FerretDB $version once for this machine (a few minutes on a fresh machine)..."
built=""
# 1. The plain route.
if (cd "$work" && GOBIN="$work/bin" run_go install "$package@$version") >"$work/install.log" 2>&1; then
  if works "$work/bin/ferretdb"; then
    built="$work/bin/ferretdb"
  else
    say "'go install $package@$version' built a binary that does not start (the module zip lacks the generated build/version/version.txt); building from a patched copy instead"
  fi
else
  say "'go install $package@$version' failed: $(first_error "$work/install.log"); building from a patched copy instead"
fi

# 2. A scratch module whose copy of FerretDB's source carries the version.txt that FerretDB's own tooling generates.
if [ -z "$built" ]; then
  scratch="$work/scratch"
  mkdir -p "$scratch"
  (
    cd "$scratch"
    run_go mod init oe-ferretdb-build
    run_go get "$package@$version"
    src="$(run_go list -m -f '{{.Dir}}' "$module")"
    [ -d "$src" ] || { echo "module source of $module not found" >&2; exit 1; }
    cp -r "$src" ./src
    chmod -R u+w ./src
    echo "$version" >./src/build/version/version.txt
    run_go mod edit -replace "$module=./src"
    run_go build -o "$work/ferretdb" "$package"
  ) >"$work/build.log" 2>&1 || {
    say "error: building FerretDB $version failed; last lines of the build log:"
    tail -n 20 "$work/build.log" >&2
    exit 1
  }
  works "$work/ferretdb" || { say "error: the built FerretDB binary does not report $version:"; "$work/ferretdb" --version >&2 || true; exit 1; }
  built="$work/ferretdb"
fi

cp "$built" "$dest.tmp.$$"
chmod 755 "$dest.tmp.$$"
mv -f "$dest.tmp.$$" "$dest"
say "installed $("$dest" --version | head -n 1) at $dest"
echo "$dest"
