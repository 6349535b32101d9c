# Shared by the benchmark scripts (sourced, not run): building the measured binaries, cached
# demo datasets, a server on loopback (mongod or FerretDB), and size labels. Callers define die().

# bench_build BUILD_DIR REPO_ROOT TARGET...: builds the targets (-j2), re-configuring a build
# dir that predates one of them.
bench_build() {
  local build_dir=$1 repo_root=$2
  shift 2
  [[ -f $build_dir/CMakeCache.txt ]] ||
    die "$build_dir is not a configured build dir (cmake --preset dev, or pass --build-dir)"
  local target
  for target in "$@"; do
    if ! grep -q "$target" "$build_dir/build.ninja" "$build_dir/Makefile" 2>/dev/null; then
      echo "Re-configuring $build_dir (adds $target) ..." >&2
      cmake -S "$repo_root" -B "$build_dir" >&2
      break
    fi
  done
  echo "Building $* in $build_dir ..." >&2
  cmake --build "$build_dir" --target "$@" -j2 >&2
}

# bench_dataset CLI DATA_DIR DATASET DOCS SEED REGENERATE: prints the path of the cached
# demo dataset <DATA_DIR>/<DATASET>-<DOCS>-seed<SEED>/<DATASET>.bson, generating it first
# if missing (or if REGENERATE is 1). Written under a temporary name, then renamed.
bench_dataset() {
  local cli=$1 data_dir=$2 dataset=$3 docs=$4 seed=$5 regenerate=$6
  local dir=$data_dir/$dataset-$docs-seed$seed
  local file=$dir/$dataset.bson
  if ((regenerate)) || [[ ! -s $file ]]; then
    echo "Generating $dataset with $docs documents (seed $seed) ..." >&2
    rm -rf "$dir" "$dir.tmp"
    mkdir -p "$dir.tmp"
    "$cli" demo-data --out "$dir.tmp" --dataset "$dataset" --docs "$docs" --seed "$seed" >&2
    mv "$dir.tmp" "$dir"
  fi
  echo "$file"
}

# bench_label DOCS: 100000 -> 100k, 1000000 -> 1M.
bench_label() {
  local docs=$1
  if ((docs % 1000000 == 0)); then
    echo "$((docs / 1000000))M"
  elif ((docs % 1000 == 0)); then
    echo "$((docs / 1000))k"
  else
    echo "$docs"
  fi
}

# The server a benchmark starts: mongod (default: MongoDB's own 6.0.5, the server every figure
# is proven on) or ferretdb (FerretDB 1.24, the compatibility server). Scripts set it from
# --server; OE_BENCH_SERVER sets the default.
BENCH_SERVER=${OE_BENCH_SERVER:-mongod}

# bench_check_server: dies unless BENCH_SERVER names a server a benchmark can start.
bench_check_server() {
  case $BENCH_SERVER in
    mongod|ferretdb) ;;
    *) die "--server must be mongod or ferretdb (got '$BENCH_SERVER')" ;;
  esac
}

# bench_start_server REPO_ROOT BUILD_DIR STATE_DIR WORK NAME: starts the tests' fixture for
# BENCH_SERVER (plain variant) and sets BENCH_URI, BENCH_SERVER_PID and BENCH_SERVER_DESC. The
# caller stops it (bench_cleanup). mongod's fixture runs its commands through the build's
# fixture_command (built here if missing).
bench_start_server() {
  local repo_root=$1 build_dir=$2 state_dir=$3 work=$4 name=$5
  local fixture=$repo_root/tests/live/$BENCH_SERVER-fixture.sh
  if [[ $BENCH_SERVER == mongod ]]; then
    [[ -x $build_dir/bin/fixture_command ]] || cmake --build "$build_dir" --target fixture_command -j2 >&2
    export OE_FIXTURE_COMMAND=$build_dir/bin/fixture_command
  fi
  echo "Starting $BENCH_SERVER (state in $state_dir) ..." >&2
  bash "$fixture" start "$state_dir" plain >"$work/fixture.out" ||
    { cat "$work/fixture.out" >&2; echo "$name: could not start $BENCH_SERVER" >&2; exit 1; }
  BENCH_URI=$(awk -F= '$1 == "OE_TEST_URI" { sub(/^[^=]*=/, ""); print; exit }' "$state_dir/env")
  BENCH_SERVER_PID=$(awk -F= '$1 == "OE_TEST_PID" { print $2; exit }' "$state_dir/env")
  local binary version
  binary=$(tr '\0' ' ' <"/proc/$BENCH_SERVER_PID/cmdline" | cut -d' ' -f1)
  if [[ $BENCH_SERVER == mongod ]]; then
    version=$("$binary" --version 2>/dev/null | awk '$1 == "db" && $2 == "version" { print $3; exit }')
    BENCH_SERVER_DESC="MongoDB mongod $version (WiredTiger, 256 MB cache, loopback), pid $BENCH_SERVER_PID"
  else
    version=$("$binary" --version 2>/dev/null | awk '$1 == "version:" { print $2; exit }')
    BENCH_SERVER_DESC="FerretDB $version (SQLite, loopback), pid $BENCH_SERVER_PID"
  fi
}

# bench_setup NAME REPO_ROOT BUILD_DIR URI [STATE_DIR]: a work dir (BENCH_WORK) and the server.
# With URI empty, starts BENCH_SERVER with its state in STATE_DIR (default
# BUILD_DIR/NAME-BENCH_SERVER); else uses URI. Sets
# BENCH_URI, BENCH_SERVER_PID (empty for --uri) and BENCH_SERVER_DESC. At exit (or on INT/TERM),
# stops the server it started and removes the work dir. Call it directly, not in $(...): it sets
# globals and traps.
bench_setup() {
  local name=$1 repo_root=$2 build_dir=$3 uri=$4
  bench_check_server
  BENCH_FIXTURE=$repo_root/tests/live/$BENCH_SERVER-fixture.sh
  BENCH_STATE_DIR=${5:-$build_dir/$name-$BENCH_SERVER}
  BENCH_STARTED=0 BENCH_SERVER_PID=
  BENCH_WORK=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
  trap bench_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  if [[ -z $uri ]]; then
    BENCH_STARTED=1
    bench_start_server "$repo_root" "$build_dir" "$BENCH_STATE_DIR" "$BENCH_WORK" "$name"
  else
    BENCH_URI=$uri
    BENCH_SERVER_DESC="given by --uri (not started by this script)"
  fi
  [[ -n $BENCH_URI ]] || die "no server URI"
}

# shellcheck disable=SC2317 # invoked by the EXIT trap
bench_cleanup() {
  if ((BENCH_STARTED)); then
    bash "$BENCH_FIXTURE" stop "$BENCH_STATE_DIR" >/dev/null 2>&1 || true
  fi
  rm -rf "$BENCH_WORK"
}
