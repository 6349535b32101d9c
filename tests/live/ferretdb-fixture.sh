#!/usr/bin/env bash
# Starts or stops a throwaway FerretDB v1.24.2 (SQLite backend, loopback only, telemetry off) for live tests.
#
#   tests/live/ferretdb-fixture.sh start STATE_DIR [plain|replset|auth|tls]
#   tests/live/ferretdb-fixture.sh stop  STATE_DIR
#
# start: picks two free loopback ports (wire + debug), runs FerretDB in the background with its data in
#   STATE_DIR/data and its log in STATE_DIR/ferretdb.log, waits (at most ~30 s) until it answers `hello`, then
#   writes STATE_DIR/env (plain KEY=VALUE lines, unquoted; also printed) and STATE_DIR/env.sh (the same as
#   quoted `export` lines for shells), and exits 0 leaving the server running:
#     OE_TEST_URI=mongodb://127.0.0.1:PORT/                       (plain)
#     OE_TEST_URI=mongodb://127.0.0.1:PORT/?replicaSet=rs0        (replset: --repl-set-name=rs0)
#     OE_TEST_URI=mongodb://USER:PASSWORD@127.0.0.1:PORT/?authSource=admin&authMechanism=SCRAM-SHA-256  (auth)
#     OE_TEST_HOSTPORT=127.0.0.1:PORT  OE_TEST_PID=PID  OE_TEST_VARIANT=VARIANT  OE_TEST_SERVER=ferretdb
#     auth only: OE_TEST_USER, OE_TEST_PASSWORD, OE_TEST_AUTH_SOURCE=admin, OE_TEST_AUTH_MECHANISM=SCRAM-SHA-256
#   The tls variant also listens with TLS on a third port, with a throwaway CA (openssl) whose server
#   certificate names only "localhost", and requires client certificates; it adds OE_TEST_TLS_URI
#   (mongodb://localhost:TLSPORT/?tls=true), OE_TEST_TLS_IP_URI (the same by 127.0.0.1, which the
#   certificate does not name), OE_TEST_TLS_CA, OE_TEST_TLS_CLIENT (client certificate + key, PEM).
#   The auth variant uses FerretDB's --test-enable-new-auth (SCRAM-SHA-256/SCRAM-SHA-1 users stored by FerretDB;
#   PLAIN is refused) and checks at start that the right password is accepted and a wrong one rejected.
#   On failure it prints the log's last lines and exits 1.
# stop: ends the server (SIGTERM, then SIGKILL after 10 s), removes STATE_DIR/data and the env files; exits 0.
#
# OE_FERRETDB_PORT=N listens on that wire port instead of a free one (used by packaging/run-demo-server.sh).
# The binary is $OE_FERRETDB if set, else the one packaging/install-ferretdb.sh installs (built once per machine,
# which can take minutes the very first time). Needs only bash, python3 (standard library) and coreutils.
set -uo pipefail

fixture_name=ferretdb
server_cmdline_mark() { echo "--sqlite-url=file:$data/"; }
# shellcheck source=tests/live/fixture-lib.sh
source "$(dirname "$0")/fixture-lib.sh"
fixture_args "$@"

fixture_dispatch 100
fail() { fail_with 100 25 "$@"; }

ferretdb="${OE_FERRETDB:-}"
if [ -z "$ferretdb" ]; then
  ferretdb="$(bash "$repo/packaging/install-ferretdb.sh" | tail -n 1)" || { say "could not install FerretDB"; exit 1; }
fi
[ -x "$ferretdb" ] || { say "FerretDB binary not found or not executable: $ferretdb"; exit 1; }

# Three distinct free loopback ports, all bound at once so they differ.
free_ports() {
  python3 - <<'EOF'
import socket
socks = []
for _ in range(3):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks:
    s.close()
EOF
}

# Exit 0 once a `hello` over OP_MSG to 127.0.0.1:$1 answers ok: 1 (plain wire protocol, no driver needed).
wire_hello() {
  python3 - "$1" <<'EOF'
import socket, struct, sys
def bson(items):
    body = b""
    for key, value in items:
        k = key.encode() + b"\0"
        if isinstance(value, int):
            body += b"\x10" + k + struct.pack("<i", value)
        else:
            v = value.encode() + b"\0"
            body += b"\x02" + k + struct.pack("<i", len(v)) + v
    return struct.pack("<i", len(body) + 5) + body + b"\0"
doc = bson([("hello", 1), ("$db", "admin")])
msg = struct.pack("<I", 0) + b"\0" + doc
try:
    with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2) as s:
        s.settimeout(2)
        s.sendall(struct.pack("<iiii", 16 + len(msg), 1, 0, 2013) + msg)
        buf = b""
        while len(buf) < 4 or len(buf) < struct.unpack("<i", buf[:4])[0]:
            chunk = s.recv(65536)
            if not chunk:
                sys.exit(1)
            buf += chunk
except OSError:
    sys.exit(1)
sys.exit(0 if b"\x01ok\x00" + struct.pack("<d", 1.0) in buf else 1)
EOF
}


# A leftover server from an interrupted run of this same state dir goes first.
stop_server
mkdir -p "$data" || exit 1
: >"$log"
if [ "$variant" = tls ]; then
  command -v openssl >/dev/null || fail "openssl is needed for the tls variant"
  make_certificates "$log" || fail "could not create test certificates"
fi

for attempt in 1 2 3; do
  read -r port debug_port tls_port < <(free_ports) || fail "python3 could not pick free ports"
  [ -n "${debug_port:-}" ] || fail "python3 could not pick free ports"
  if [ -n "${OE_FERRETDB_PORT:-}" ]; then
    port="$OE_FERRETDB_PORT"
    [ "$debug_port" != "$port" ] || debug_port=$((port + 1))
  fi
  args=(
    --handler=sqlite "--sqlite-url=file:$data/"
    "--listen-addr=127.0.0.1:$port" "--debug-addr=127.0.0.1:$debug_port"
    --telemetry=disable "--state-dir=$state" --log-level=INFO
  )
  case "$variant" in
    replset) args+=("--repl-set-name=$repl_set") ;;
    auth) args+=(--test-enable-new-auth "--setup-database=$auth_db" "--setup-username=$auth_user" "--setup-password=$auth_password") ;;
    tls) args+=("--listen-tls=127.0.0.1:$tls_port" "--listen-tls-cert-file=$state/tls/server.crt"
                "--listen-tls-key-file=$state/tls/server.key" "--listen-tls-ca-file=$state/tls/ca.pem") ;;
  esac

  echo "=== $(date -u +%FT%TZ) start attempt $attempt: $ferretdb ${args[*]}" >>"$log"
  (cd "$state" && DO_NOT_TRACK=1 exec "$ferretdb" "${args[@]}" </dev/null >>"$log" 2>&1) &
  pid=$!
  echo "$pid" >"$pidfile"

  ready=0
  for ((i = 0; i < 150; i++)); do  # ~30 s
    kill -0 "$pid" 2>/dev/null || break
    # Our own process must be listening (the log says so) and answer: not some other server on that port.
    if grep -qF "Listening on TCP 127.0.0.1:$port" "$log" && wire_hello "$port"; then ready=1; break; fi
    sleep 0.2
  done
  [ "$ready" = 1 ] && break
  if kill -0 "$pid" 2>/dev/null; then
    fail "FerretDB (pid $pid) did not answer on 127.0.0.1:$port within 30 s"
  fi
  # Lost a race for a port to another process: try again with new ports.
  if tail -n 5 "$log" | grep -q "address already in use" && [ "$attempt" -lt 3 ] && [ -z "${OE_FERRETDB_PORT:-}" ]; then
    say "port $port or $debug_port was taken meanwhile; retrying"
    continue
  fi
  wait "$pid" 2>/dev/null
  fail "FerretDB exited during start-up (exit code $?)"
done

hostport="127.0.0.1:$port"
case "$variant" in
  plain|tls) uri="mongodb://$hostport/" ;;
  replset) uri="mongodb://$hostport/?replicaSet=$repl_set" ;;
  auth) uri="mongodb://$auth_user:$auth_password@$hostport/?authSource=$auth_db&authMechanism=$auth_mechanism" ;;
esac

if [ "$variant" = auth ]; then
  # FerretDB's own `ping` (Go driver, SCRAM-SHA-256): the right password must work and a wrong one must not.
  ping_as() {
    (cd "$state" && DO_NOT_TRACK=1 "$ferretdb" ping "--listen-addr=$hostport" --test-enable-new-auth \
      "--setup-database=$auth_db" "--setup-username=$auth_user" "--setup-password=$1" --setup-timeout=10s \
      --telemetry=disable "--state-dir=$state" </dev/null >>"$log" 2>&1)
  }
  ping_as "$auth_password" || fail "authentication as $auth_user with the right password failed"
  ping_as "$auth_password-wrong" && fail "a wrong password was accepted: authentication is not enforced"
fi

env_lines "$uri" "$hostport" "$pid" ferretdb "${tls_port:-}" | write_env || fail "cannot write $state/env"
say "FerretDB $variant server up on $hostport (pid $pid); stop with: $0 stop $state"
exit 0
