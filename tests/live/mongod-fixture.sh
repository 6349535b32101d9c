#!/usr/bin/env bash
# Starts or stops a throwaway MongoDB mongod 6.0.5 (loopback only, its own data directory) for live
# tests: the server every live behaviour is proven on.
#
#   tests/live/mongod-fixture.sh start STATE_DIR [plain|replset|auth|tls]
#   tests/live/mongod-fixture.sh stop  STATE_DIR
#
# start: picks a free loopback port, runs mongod in the background (data in STATE_DIR/data, log in
#   STATE_DIR/mongod.log, a 256 MB WiredTiger cache, no diagnostic data), waits until it answers,
#   then writes STATE_DIR/env and STATE_DIR/env.sh with the same keys as ferretdb-fixture.sh
#   (OE_TEST_URI, OE_TEST_HOSTPORT, OE_TEST_PID, OE_TEST_VARIANT, the auth and tls keys) plus
#   OE_TEST_SERVER=mongod, and exits 0 leaving the server running.
#   - replset: a one-member replica set rs0 (transactions, change streams), initiated and primary
#     before start returns; OE_TEST_URI ends in ?replicaSet=rs0.
#   - auth: --auth, user oe_test (root) created in admin through the localhost exception; start
#     checks that the right password works, a wrong one fails and no credentials are refused.
#   - tls: --tlsMode preferTLS with a throwaway CA whose server certificate names only
#     "localhost"; TLS clients must present a certificate of that CA. Plain connections still work
#     on the same port (OE_TEST_URI), OE_TEST_TLS_URI is mongodb://localhost:PORT/?tls=true.
#   On failure it prints the log's last lines and exits 1.
# stop: ends the server (SIGTERM, then SIGKILL after 20 s), removes STATE_DIR's data and env files.
#
# The binary is $OE_MONGOD if set, else the one packaging/install-mongod.sh installs. Commands go
# through $OE_FIXTURE_COMMAND (tests/live/fixture_command.cpp, built with the tests: the MongoDB C
# driver), so nothing here speaks the wire protocol by hand. OE_MONGOD_PORT=N uses that port.
set -uo pipefail

fixture_name=mongod
server_cmdline_mark() { echo "--dbpath $data "; }
# shellcheck source=tests/live/fixture-lib.sh
source "$(dirname "$0")/fixture-lib.sh"
fixture_args "$@"

fixture_dispatch 200
fail() { fail_with 200 15 "$@"; }

mongod="${OE_MONGOD:-}"
if [ -z "$mongod" ]; then
  mongod="$(bash "$repo/packaging/install-mongod.sh" | tail -n 1)" || { say "could not install mongod"; exit 1; }
fi
[ -x "$mongod" ] || { say "mongod binary not found or not executable: $mongod"; exit 1; }
command_tool="${OE_FIXTURE_COMMAND:-}"
[ -x "$command_tool" ] || { say "OE_FIXTURE_COMMAND must name the built fixture_command tool (got '${command_tool}')"; exit 1; }
command_tool="$(realpath "$command_tool")" # the tls set-up changes directory

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Runs one command; $1 URI, $2 database, $3 the command as extended JSON. Reply on stdout.
db_command() { "$command_tool" "$@"; }


# Polls `hello` on $1 (a URI) until its reply contains $2, for at most $3 tenths of a second.
wait_for_hello() {
  local i reply
  for ((i = 0; i < $3; i++)); do
    kill -0 "$pid" 2>/dev/null || return 1
    if reply="$(db_command "$1" admin '{"hello": 1}' 2>/dev/null)" && [[ "$reply" == *"$2"* ]]; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

stop_server
mkdir -p "$data" || exit 1
: >"$log"
if [ "$variant" = tls ]; then
  command -v openssl >/dev/null || fail "openssl is needed for the tls variant"
  make_certificates "$state/tls.log" || fail "could not create test certificates (see $state/tls.log)"
fi

port="${OE_MONGOD_PORT:-$(free_port)}"
[ -n "$port" ] || fail "python3 could not pick a free port"
args=(
  --dbpath "$data" --port "$port" --bind_ip 127.0.0.1 --unixSocketPrefix "$state"
  --logpath "$log" --logappend --wiredTigerCacheSizeGB 0.25
  --setParameter diagnosticDataCollectionEnabled=false
)
case "$variant" in
  replset) args+=(--replSet "$repl_set" --oplogSize 128) ;;
  auth) args+=(--auth) ;;
  tls) args+=(--tlsMode preferTLS --tlsCertificateKeyFile "$state/tls/server.pem" --tlsCAFile "$state/tls/ca.pem") ;;
esac

echo "=== $(date -u +%FT%TZ) start: $mongod ${args[*]}" >"$state/start.log"
("$mongod" "${args[@]}" </dev/null >>"$state/start.log" 2>&1) &
pid=$!
echo "$pid" >"$pidfile"

hostport="127.0.0.1:$port"
direct="mongodb://$hostport/?directConnection=true"
# ~60 s: a first start on a loaded 2-core machine preallocates its journal.
wait_for_hello "$direct" '"ok"' 600 || {
  cat "$state/start.log" >&2
  fail "mongod (pid $pid) did not answer on $hostport within 60 s"
}

case "$variant" in
  replset)
    db_command "$direct" admin "{\"replSetInitiate\": {\"_id\": \"$repl_set\", \"members\": [{\"_id\": 0, \"host\": \"$hostport\"}]}}" \
      >>"$state/start.log" 2>&1 || fail "replSetInitiate failed"
    wait_for_hello "$direct" '"isWritablePrimary" : true' 600 || fail "the replica set $repl_set elected no primary within 60 s"
    ;;
  auth)
    db_command "$direct" admin "{\"createUser\": \"$auth_user\", \"pwd\": \"$auth_password\", \"roles\": [\"root\"]}" \
      >>"$state/start.log" 2>&1 || fail "createUser $auth_user failed"
    base="mongodb://$auth_user:%s@$hostport/?authSource=$auth_db&authMechanism=$auth_mechanism"
    # shellcheck disable=SC2059
    db_command "$(printf "$base" "$auth_password")" admin '{"listDatabases": 1}' >/dev/null 2>>"$state/start.log" ||
      fail "authentication as $auth_user with the right password failed"
    # shellcheck disable=SC2059
    db_command "$(printf "$base" "$auth_password-wrong")" admin '{"ping": 1}' >/dev/null 2>&1 &&
      fail "a wrong password was accepted: authentication is not enforced"
    db_command "$direct" admin '{"listDatabases": 1}' >/dev/null 2>&1 &&
      fail "a client without credentials may list the databases: authentication is not enforced"
    ;;
  tls)
    tls_check="mongodb://localhost:$port/?tls=true&tlsCAFile=$state/tls/ca.pem&tlsCertificateKeyFile=$state/tls/client.pem"
    db_command "$tls_check" admin '{"ping": 1}' >/dev/null 2>>"$state/start.log" || fail "a TLS client with a certificate could not connect"
    ;;
esac

case "$variant" in
  plain|tls) uri="mongodb://$hostport/" ;;
  replset) uri="mongodb://$hostport/?replicaSet=$repl_set" ;;
  auth) uri="mongodb://$auth_user:$auth_password@$hostport/?authSource=$auth_db&authMechanism=$auth_mechanism" ;;
esac

env_lines "$uri" "$hostport" "$pid" mongod "$port" | write_env || fail "cannot write $state/env"
say "mongod $variant server up on $hostport (pid $pid); stop with: $0 stop $state"
exit 0
