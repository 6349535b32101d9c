#!/usr/bin/env bash
# Runs a local FerretDB v1.24.2 (MongoDB wire protocol, SQLite backend, loopback only, telemetry off) seeded with
# the demo datasets (book_sales, activity_feeds, viral_posts in database "demo"), to try the live-server features.
#
#   packaging/run-demo-server.sh               # foreground: Ctrl-C stops the server and removes its data
#   packaging/run-demo-server.sh --background  # leaves it running; stop it later with --stop
#   packaging/run-demo-server.sh --stop
#
# Listens on 127.0.0.1:27017 if that port is free, else on a free port; the URI to use is printed at the end and
# written to build/demo-server/env (OE_TEST_URI=...). Data and log live under build/demo-server/.
# FerretDB is built once per machine by packaging/install-ferretdb.sh (or taken from $OE_FERRETDB).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
state="$repo/build/demo-server"
fixture="$repo/tests/live/ferretdb-fixture.sh"
cli="${OE_CLI:-$repo/build/bin/outlier-explorer-cli}"
demo_data="$repo/build/demo/data"
datasets=(book_sales activity_feeds viral_posts)

mode=foreground
case "${1:-}" in
  "") ;;
  --background) mode=background ;;
  --stop)
    bash "$fixture" stop "$state"
    echo "demo server stopped"
    exit 0
    ;;
  -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: $0 [--background|--stop]" >&2; exit 2 ;;
esac

# Already running in the background? Say where, and leave it be.
if [ -f "$state/env" ] && pid="$(sed -n 's/^OE_TEST_PID=//p' "$state/env")" && kill -0 "$pid" 2>/dev/null; then
  uri="$(sed -n 's/^OE_TEST_URI=//p' "$state/env")"
  echo "A demo server is already running (pid $pid): $uri"
  echo "Stop it with: packaging/run-demo-server.sh --stop"
  exit 0
fi

port_free() {
  python3 -c 'import socket, sys
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)' "$1"
}

if [ ! -x "$cli" ]; then
  echo "run-demo-server: building the CLI first (packaging/build.sh dev)"
  bash packaging/setup-debian.sh
  bash packaging/build.sh dev
fi

ferretdb="${OE_FERRETDB:-$(bash packaging/install-ferretdb.sh | tail -n 1)}"

port=""
if port_free 27017; then
  port=27017
else
  echo "run-demo-server: 127.0.0.1:27017 is taken; using a free port instead"
fi

mkdir -p "$state"
stop() { bash "$fixture" stop "$state"; }
trap 'echo; echo "run-demo-server: stopping"; stop; exit 130' INT TERM
if ! out="$(OE_FERRETDB="$ferretdb" OE_FERRETDB_PORT="$port" bash "$fixture" start "$state" plain 2>&1)"; then
  echo "$out" >&2
  exit 1
fi
uri="$(sed -n 's/^OE_TEST_URI=//p' "$state/env")"
pid="$(sed -n 's/^OE_TEST_PID=//p' "$state/env")"
seeded=0
trap '[ "$seeded" = 1 ] || stop' EXIT

echo "run-demo-server: FerretDB up on $uri (pid $pid); seeding database \"demo\"..."
"$cli" demo-data --out "$demo_data" >/dev/null
for name in "${datasets[@]}"; do
  if ! "$cli" import --uri "$uri" --db demo --collection "$name" --dump "$demo_data/$name.bson" --drop; then
    echo "run-demo-server: importing $name failed (does this CLI have the 'import' command? rebuild with packaging/build.sh)" >&2
    exit 1
  fi
done
seeded=1

echo
echo "Demo server ready: $uri   (database: demo; collections: ${datasets[*]})"
echo "  e.g. build/bin/outlier-explorer-cli analyze --uri '$uri' --db demo --collection book_sales --out build/demo/live-reports/book_sales"
echo "  log: $state/ferretdb.log"
if [ "$mode" = background ]; then
  trap - EXIT INT TERM
  echo "Running in the background. Stop it with: packaging/run-demo-server.sh --stop"
  exit 0
fi

echo "Press Ctrl-C to stop it (its data is removed then)."
trap 'echo; echo "run-demo-server: stopping"; stop; exit 0' INT TERM
trap - EXIT
while kill -0 "$pid" 2>/dev/null; do
  sleep 1
done
echo "run-demo-server: FerretDB exited by itself; see $state/ferretdb.log" >&2
stop
exit 1
