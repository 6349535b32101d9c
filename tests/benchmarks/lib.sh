# Shared by the benchmark scripts (sourced, not run): building the measured binaries, cached
# demo datasets, a FerretDB server on loopback, and size labels. Callers define die().

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

# bench_start_ferretdb FIXTURE STATE_DIR WORK NAME: starts the tests' FerretDB fixture (plain)
# and sets BENCH_URI and BENCH_SERVER_DESC. The caller stops it (FIXTURE stop STATE_DIR).
bench_start_ferretdb() {
  local fixture=$1 state_dir=$2 work=$3 name=$4
  echo "Starting FerretDB (state in $state_dir) ..." >&2
  "$fixture" start "$state_dir" plain >"$work/fixture.out" ||
    { cat "$work/fixture.out" >&2; echo "$name: could not start FerretDB" >&2; exit 1; }
  BENCH_URI=$(awk -F= '$1 == "OE_TEST_URI" { sub(/^[^=]*=/, ""); print; exit }' "$state_dir/env")
  local pid binary version
  pid=$(awk -F= '$1 == "OE_TEST_PID" { print $2; exit }' "$state_dir/env")
  binary=$(tr '\0' ' ' <"/proc/$pid/cmdline" | cut -d' ' -f1)
  version=$("$binary" --version 2>/dev/null | awk '$1 == "version:" { print $2; exit }')
  BENCH_SERVER_DESC="FerretDB $version (SQLite, loopback), pid $pid"
}

# bench_setup NAME FIXTURE STATE_DIR URI: a work dir (BENCH_WORK) and the server. With URI
# empty, starts the FerretDB fixture in STATE_DIR (bench_start_ferretdb); else uses URI. Sets
# BENCH_URI and BENCH_SERVER_DESC. At exit (or on INT/TERM), stops the server it started and
# removes the work dir. Call it directly, not in $(...): it sets globals and traps.
bench_setup() {
  local name=$1
  BENCH_FIXTURE=$2 BENCH_STATE_DIR=$3 BENCH_STARTED=0
  BENCH_WORK=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
  trap bench_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  if [[ -z $4 ]]; then
    BENCH_STARTED=1
    bench_start_ferretdb "$BENCH_FIXTURE" "$BENCH_STATE_DIR" "$BENCH_WORK" "$name"
  else
    BENCH_URI=$4
    BENCH_SERVER_DESC="given by --uri (not started by this script)"
  fi
  [[ -n $BENCH_URI ]] || die "no server URI"
}

# shellcheck disable=SC2317 # invoked by the EXIT trap
bench_cleanup() {
  if ((BENCH_STARTED)); then
    "$BENCH_FIXTURE" stop "$BENCH_STATE_DIR" >/dev/null 2>&1 || true
  fi
  rm -rf "$BENCH_WORK"
}
