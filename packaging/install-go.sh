#!/usr/bin/env bash
# Finds a Go toolchain >= 1.21 (FerretDB, toxiproxy and the codegen tests need one) and prints the
# path of its `go` as the last line of stdout; messages go to stderr.
#   go=$(bash packaging/install-go.sh | tail -n 1)
# The machine's own `go` (PATH, then /usr/local/go/bin) is used when it is new enough. Otherwise an
# older one (Debian 12's golang-go is 1.19, which setup-debian.sh installs where there is none)
# fetches the official toolchain as the Go module golang.org/toolchain from the Go module proxy,
# exactly what `go` >= 1.21 does by itself for GOTOOLCHAIN, into the per-machine cache:
# ${OE_CACHE_DIR:-$HOME/.cache/outlier-explorer}/go-$toolchain. Idempotent.
set -euo pipefail

toolchain=go1.22.12
cache_root="${OE_CACHE_DIR:-$HOME/.cache/outlier-explorer}"
dest="$cache_root/go-$toolchain"

say() { echo "install-go: $*" >&2; }
die() { say "error: $*"; exit 1; }

# True when $1 is a go command of version 1.21 or later.
recent_enough() {
  local v major minor
  [ -x "$1" ] || return 1
  v="$(GOTOOLCHAIN=local "$1" env GOVERSION 2>/dev/null)" || return 1
  [[ "$v" =~ ^go([0-9]+)\.([0-9]+) ]] || return 1
  major="${BASH_REMATCH[1]}" minor="${BASH_REMATCH[2]}"
  ((major > 1 || (major == 1 && minor >= 21)))
}

candidates=()
if command -v go >/dev/null; then candidates+=("$(command -v go)"); fi
candidates+=(/usr/local/go/bin/go "$dest/bin/go")
for go in "${candidates[@]}"; do
  if recent_enough "$go"; then
    echo "$go"
    exit 0
  fi
done

bootstrap=""
for go in "${candidates[@]}" /usr/lib/go/bin/go /usr/lib/go-1.*/bin/go; do
  if [ -x "$go" ]; then bootstrap="$go"; break; fi
done
[ -n "$bootstrap" ] || die "no Go toolchain found (PATH, /usr/local/go, /usr/lib/go); install Debian's golang-go (packaging/setup-debian.sh does) and run this again"

case "$(uname -m)" in
  x86_64) arch=amd64 ;;
  aarch64) arch=arm64 ;;
  *) die "no Go toolchain module for $(uname -m)" ;;
esac
module="golang.org/toolchain@v0.0.1-$toolchain.linux-$arch"

mkdir -p "$cache_root"
exec 9>"$cache_root/.go-install.lock"
flock -w 900 9 || die "timed out waiting for another install (lock $cache_root/.go-install.lock)"
if recent_enough "$dest/bin/go"; then
  echo "$dest/bin/go"
  exit 0
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/oe-go-install.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
say "$("$bootstrap" version) is older than 1.21: fetching $module from the Go module proxy once for this machine..."
if ! (cd "$work" && GOPATH="$work/gopath" GOFLAGS=-modcacherw GO111MODULE=on GOTOOLCHAIN=local \
  "$bootstrap" mod download -json "$module" >"$work/download.json" 2>"$work/download.log"); then
  say "error: '$bootstrap mod download $module' failed:"
  tail -n 5 "$work/download.log" "$work/download.json" >&2
  exit 1
fi
dir="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["Dir"])' "$work/download.json")"
[ -x "$dir/bin/go" ] || [ -f "$dir/bin/go" ] || die "$module has no bin/go (in $dir)"
# Module zips carry no file modes: make the commands executable, as go's own toolchain switch does.
cp -r "$dir" "$work/goroot"
chmod -R u+w "$work/goroot"
chmod 755 "$work/goroot"/bin/* "$work/goroot"/pkg/tool/*/*
recent_enough "$work/goroot/bin/go" || die "the fetched toolchain does not run: $("$work/goroot/bin/go" version 2>&1 | head -n 1)"
rm -rf "$dest.tmp.$$"
mv "$work/goroot" "$dest.tmp.$$"
rm -rf "$dest"
mv "$dest.tmp.$$" "$dest"
say "installed $("$dest/bin/go" version) at $dest"
echo "$dest/bin/go"
