# Shared by mongod-fixture.sh and ferretdb-fixture.sh (sourced, not run): the arguments, the
# state directory, stopping a server by its pid file, throwaway TLS certificates, and the env
# files a test reads. The sourcing script sets `fixture_name` (for messages and file names) and
# defines `server_cmdline_mark` (a string only its own server's command line contains) first.

usage() { echo "usage: $0 start|stop STATE_DIR [plain|replset|auth|tls]" >&2; exit 2; }

# fixture_args "$@": sets action, variant, here, repo, state, data, log, pidfile, and the test
# user's credentials. Exits 0 for `stop` of a state directory that does not exist.
fixture_args() {
  [ $# -ge 2 ] || usage
  action="$1"
  variant="${3:-plain}"
  case "$variant" in plain|replset|auth|tls) ;; *) usage ;; esac
  here="$(cd "$(dirname "$0")" && pwd)"
  repo="$(cd "$here/../.." && pwd)"
  if [ "$action" = stop ] && [ ! -d "$2" ]; then
    exit 0
  fi
  mkdir -p "$2" || exit 1
  state="$(cd "$2" && pwd)"
  data="$state/data"
  log="$state/$fixture_name.log"
  pidfile="$state/$fixture_name.pid"
  auth_user=oe_test
  auth_password=oe-test-password
  auth_db=admin
  auth_mechanism=SCRAM-SHA-256
  repl_set=rs0
}

say() { echo "$fixture_name-fixture: $*" >&2; }

# Prints the pid from the pid file if that process is still this fixture's server.
our_pid() {
  local pid
  pid="$(cat "$pidfile" 2>/dev/null)" || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF -- "$(server_cmdline_mark)" || return 1
  echo "$pid"
}

# `stop` ends the server (and exits 0); anything but `start` is a usage error. STOP_PATIENCE:
# tenths of a second before SIGKILL.
fixture_dispatch() {
  if [ "$action" = stop ]; then
    stop_server "" "$1"
    exit 0
  fi
  [ "$action" = start ] || usage
}

# A failed start: the reason and the last $2 lines of the server's log, then the half-started
# server ended (PID in $pid if known; $1 tenths of a second before SIGKILL), exit 1.
fail_with() {
  local patience="$1" lines="$2"
  shift 2
  say "$*"
  if [ -s "$log" ]; then
    say "last lines of $log:"
    tail -n "$lines" "$log" >&2
  fi
  stop_server "${pid:-}" "$patience"
  exit 1
}

# Ends the server recorded in the pid file (or, during start-up, the process given as $1):
# SIGTERM, then SIGKILL after $2 tenths of a second (default 100); removes its data and env.
stop_server() {
  local pid="${1:-}" patience="${2:-100}" i
  if [ -n "$pid" ] || pid="$(our_pid)"; then
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < patience; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  fi
  rm -f "$pidfile" "$state/env" "$state/env.sh"
  rm -rf "$data" "$state/tls"
}

# A throwaway CA (tls/ca.pem), a server certificate for "localhost" only (tls/server.crt and
# tls/server.key; tls/server.pem holds both) and a client certificate (tls/client.pem holds the
# certificate and its key). openssl's output goes to $1.
make_certificates() {
  local out="$1" dir="$state/tls"
  mkdir -p "$dir" && cd "$dir" || return 1
  {
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=oe-test-ca" &&
      openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost" &&
      printf 'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >server.ext &&
      openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile server.ext &&
      cat server.crt server.key >server.pem &&
      openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj "/CN=oe-test-client" &&
      printf 'extendedKeyUsage=clientAuth\n' >client.ext &&
      openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.crt -days 2 -extfile client.ext &&
      cat client.crt client.key >client.pem
  } >>"$out" 2>&1
  local rc=$?
  cd "$state" || return 1
  return $rc
}

# The env lines every fixture writes: the URI, host and port, pid, variant and server, then the
# tls or auth keys. Arguments: URI HOSTPORT PID SERVER [TLS_PORT].
env_lines() {
  local uri="$1" hostport="$2" pid="$3" server="$4" tls_port="${5:-}"
  echo "OE_TEST_URI=$uri"
  echo "OE_TEST_HOSTPORT=$hostport"
  echo "OE_TEST_PID=$pid"
  echo "OE_TEST_VARIANT=$variant"
  echo "OE_TEST_SERVER=$server"
  if [ "$variant" = tls ]; then
    echo "OE_TEST_TLS_URI=mongodb://localhost:$tls_port/?tls=true"
    echo "OE_TEST_TLS_IP_URI=mongodb://127.0.0.1:$tls_port/?tls=true"
    echo "OE_TEST_TLS_HOSTPORT=localhost:$tls_port"
    echo "OE_TEST_TLS_CA=$state/tls/ca.pem"
    echo "OE_TEST_TLS_CLIENT=$state/tls/client.pem"
  fi
  if [ "$variant" = auth ]; then
    echo "OE_TEST_USER=$auth_user"
    echo "OE_TEST_PASSWORD=$auth_password"
    echo "OE_TEST_AUTH_SOURCE=$auth_db"
    echo "OE_TEST_AUTH_MECHANISM=$auth_mechanism"
  fi
}

# Writes standard input (KEY=VALUE lines) to STATE/env and, quoted as `export` lines for shells
# (the auth URI's '&' would break sourcing the plain file), to STATE/env.sh; each written to a
# temporary file first and renamed. Prints the env lines. Returns non-zero if a write failed.
write_env() {
  cat >"$state/env.tmp" || return 1
  while IFS='=' read -r key value; do
    printf "export %s='%s'\n" "$key" "$value"
  done <"$state/env.tmp" >"$state/env.sh.tmp" || return 1
  mv -f "$state/env.sh.tmp" "$state/env.sh" && mv -f "$state/env.tmp" "$state/env" && cat "$state/env"
}
