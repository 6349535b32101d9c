#!/usr/bin/env bash
# Installs Shopify's toxiproxy server v2.5.0 (the fault and latency proxy of the `faults` tests and
# the network benchmarks) into a per-machine cache, building it from the Go module proxy once.
# Non-interactive and idempotent. Messages go to stderr; the last (only) line on stdout is the path:
#   toxiproxy=$(bash packaging/install-toxiproxy.sh | tail -n 1)
# Cache: ${OE_CACHE_DIR:-$HOME/.cache/outlier-explorer}/toxiproxy-v2.5.0/toxiproxy-server. Needs Go (install-go.sh).
set -euo pipefail

version=v2.5.0
package=github.com/Shopify/toxiproxy/v2/cmd/server
cache_root="${OE_CACHE_DIR:-$HOME/.cache/outlier-explorer}"
dest_dir="$cache_root/toxiproxy-$version"
dest="$dest_dir/toxiproxy-server"

say() { echo "install-toxiproxy: $*" >&2; }
# shellcheck source=packaging/install-lib.sh
source "$(dirname "$0")/install-lib.sh"
works() { [ -x "$1" ] && [[ "$(output_of "$1" -version)" == "toxiproxy-server version"* ]]; }

install_prelude "$dest" "$dest_dir" 600
go_cmd="$(bash "$(dirname "$0")/install-go.sh" | tail -n 1)" || { say "error: no Go toolchain >= 1.21"; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/oe-toxiproxy-build.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
say "building toxiproxy $version once for this machine ..."
if ! (cd "$work" && GOWORK=off GOBIN="$work/bin" nice -n 10 "$go_cmd" install "$package@$version") \
  >"$work/build.log" 2>&1; then
  say "error: 'go install $package@$version' failed:"
  tail -n 20 "$work/build.log" >&2
  exit 1
fi
works "$work/bin/server" || { say "error: the built binary does not start"; exit 1; }
cp "$work/bin/server" "$dest.tmp.$$"
chmod 755 "$dest.tmp.$$"
mv -f "$dest.tmp.$$" "$dest"
say "installed toxiproxy-server $version at $dest"
echo "$dest"
