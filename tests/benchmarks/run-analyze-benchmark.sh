#!/usr/bin/env bash
# Benchmark of `outlier-explorer-cli analyze --full` against its floor and its competitor.
#
# For each dataset size (feed_bench: activity feeds, ~1.2 KB documents, 1% heavy users) it
# measures, on the same .bson file:
#   bare walk       bench_bare_walk: libbson reads the file and walks every element (the floor)
#   analyze         outlier-explorer-cli analyze --full --quiet (default threads: one per core)
#   analyze -t1     the same with --threads 1 (for information: what the second core buys)
#   mongodb-schema  Compass's analyzer, fed the same documents by the npm bson package
# and prints wall time, docs/s, MB/s and peak RSS, then the ratios against the targets:
#   analyze time / bare walk time          <= 1.2 (issue 37: with the shape analysis, always on)
#   mongodb-schema time / analyze time     >= 50
#   analyze peak RSS / bare walk peak RSS  <= 2
#   analyze peak RSS 1M / 100k             <= 1.2
# It is a report, not a test: it exits 0 whether the targets are met or missed (non-zero only
# when something could not be run). Nothing here is registered with CTest.
#
# Usage: tests/benchmarks/run-analyze-benchmark.sh [options]
#   --build-dir DIR    CMake build dir with bin/outlier-explorer-cli and bin/bench_bare_walk
#                      (env OE_BUILD_DIR; default: <repo>/build). Both targets are built there
#                      first (cmake --build, -j2) unless --no-build.
#   --data-dir DIR     where datasets are cached between runs (env OE_BENCH_DATA;
#                      default: <build dir>/bench-data)
#   --node-dir DIR     where mongodb-schema's npm deps are installed (env OE_BENCH_NODE;
#                      default: <build dir>/bench-node)
#   --sizes LIST       dataset sizes in documents, comma- or space-separated
#                      (env OE_BENCH_SIZES; default: 100000,1000000)
#   --runs N           runs per fast tool; the best (lowest) time is kept (default 3)
#   --schema-runs N    runs of mongodb-schema per dataset (default: 3 up to 100k docs, else 1)
#   --seed S           demo-data seed (default 1)
#   --skip-schema      do not run mongodb-schema (quick runs)
#   --no-build         use the binaries as they are
#   --regenerate       regenerate the datasets even if cached
#   --cli PATH         outlier-explorer-cli to measure (env OE_CLI; implies it is not built)
#   --bare-walk PATH   bench_bare_walk to use (env OE_BARE_WALK; implies it is not built)
#
# Needs: GNU time at /usr/bin/time (Debian package `time`), node >= 20.19 and npm (for
# mongodb-schema), cmake (unless --no-build).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
# shellcheck source=tests/benchmarks/lib.sh
source "$script_dir/lib.sh"
die() { echo "run-analyze-benchmark: $*" >&2; exit 2; }

build_dir=${OE_BUILD_DIR:-$repo_root/build}
data_dir=${OE_BENCH_DATA:-}
node_dir=${OE_BENCH_NODE:-}
sizes=${OE_BENCH_SIZES:-100000,1000000}
runs=3
schema_runs=
seed=1
skip_schema=0
do_build=1
regenerate=0
cli=${OE_CLI:-}
bare_walk=${OE_BARE_WALK:-}

while (($#)); do
  case $1 in
    --build-dir) build_dir=${2:?--build-dir needs a value}; shift 2 ;;
    --data-dir) data_dir=${2:?--data-dir needs a value}; shift 2 ;;
    --node-dir) node_dir=${2:?--node-dir needs a value}; shift 2 ;;
    --sizes) sizes=${2:?--sizes needs a value}; shift 2 ;;
    --runs) runs=${2:?--runs needs a value}; shift 2 ;;
    --schema-runs) schema_runs=${2:?--schema-runs needs a value}; shift 2 ;;
    --seed) seed=${2:?--seed needs a value}; shift 2 ;;
    --skip-schema) skip_schema=1; shift ;;
    --no-build) do_build=0; shift ;;
    --regenerate) regenerate=1; shift ;;
    --cli) cli=${2:?--cli needs a value}; shift 2 ;;
    --bare-walk) bare_walk=${2:?--bare-walk needs a value}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

build_dir=$(realpath -m "$build_dir")
data_dir=$(realpath -m "${data_dir:-$build_dir/bench-data}")
node_dir=$(realpath -m "${node_dir:-$build_dir/bench-node}")
read -r -a size_list <<<"${sizes//,/ }"
((${#size_list[@]})) || die "--sizes is empty"
for n in "${size_list[@]}"; do [[ $n =~ ^[1-9][0-9]*$ ]] || die "bad size: $n"; done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "bad --runs: $runs"
[[ -z $schema_runs || $schema_runs =~ ^[1-9][0-9]*$ ]] || die "bad --schema-runs: $schema_runs"

[[ -x /usr/bin/time ]] || die "GNU time is missing at /usr/bin/time (apt-get install time)"

# --- binaries -------------------------------------------------------------------------------
targets=()
[[ -n $cli ]] || { cli=$build_dir/bin/outlier-explorer-cli; targets+=(outlier-explorer-cli); }
[[ -n $bare_walk ]] || { bare_walk=$build_dir/bin/bench_bare_walk; targets+=(bench_bare_walk); }
if ((do_build && ${#targets[@]})); then
  [[ -f $build_dir/CMakeCache.txt ]] ||
    die "$build_dir is not a configured build dir (cmake --preset dev, or pass --build-dir)"
  # A build dir configured before tests/benchmarks/ existed does not know bench_bare_walk yet.
  if [[ ! -d $build_dir/tests/benchmarks ]]; then
    echo "Re-configuring $build_dir (adds tests/benchmarks) ..." >&2
    cmake -S "$repo_root" -B "$build_dir" >&2
  fi
  echo "Building ${targets[*]} in $build_dir ..." >&2
  cmake --build "$build_dir" --target "${targets[@]}" -j2 >&2
fi
[[ -x $cli ]] || die "no outlier-explorer-cli at $cli"
[[ -x $bare_walk ]] || die "no bench_bare_walk at $bare_walk"

# --- mongodb-schema's npm deps, installed once from the committed lock ------------------------
schema_js=$script_dir/mongodb-schema/analyze.js
if ((!skip_schema)); then
  command -v node >/dev/null || die "node is missing (or pass --skip-schema)"
  command -v npm >/dev/null || die "npm is missing (or pass --skip-schema)"
  lock=$script_dir/mongodb-schema/package-lock.json
  stamp=$node_dir/.installed-lock.sha256
  lock_sum=$(sha256sum "$lock" | cut -d' ' -f1)
  if [[ ! -f $stamp || $(<"$stamp") != "$lock_sum" || ! -d $node_dir/node_modules ]]; then
    echo "Installing mongodb-schema's npm deps into $node_dir ..." >&2
    mkdir -p "$node_dir"
    rm -rf "$node_dir/node_modules" "$stamp"
    cp "$script_dir/mongodb-schema/package.json" "$lock" "$node_dir/"
    # The analyzer needs only bson (a direct dep) and reservoir: skip the optional CLI deps
    # (mongodb driver, yargs, ...).
    (cd "$node_dir" && npm ci --omit=optional --omit=dev --no-audit --no-fund >&2)
    echo "$lock_sum" >"$stamp"
  fi
fi

# --- measurement ----------------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/oe-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# measure RUNS CMD... : runs CMD RUNS times; sets m_seconds (best wall time, measured around
# GNU time at nanosecond resolution), m_rss_kb (highest peak RSS of the runs, from GNU time's
# %M) and m_out (stdout of the best run).
measure() {
  local n_runs=$1; shift
  local i t0 t1 ns best_ns="" rss max_rss=0 elapsed
  for ((i = 0; i < n_runs; i++)); do
    t0=$(date +%s%N)
    if ! /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err"; then
      echo "run-analyze-benchmark: failed: $*" >&2
      cat "$work/err" "$work/time" >&2 || true
      exit 1
    fi
    t1=$(date +%s%N)
    ns=$((t1 - t0))
    read -r elapsed rss <"$work/time"
    : "$elapsed" # GNU time's own %e (10 ms resolution) is superseded by the ns timer
    ((rss > max_rss)) && max_rss=$rss
    if [[ -z $best_ns ]] || ((ns < best_ns)); then
      best_ns=$ns
      cp "$work/out" "$work/best-out"
    fi
  done
  m_seconds=$(awk -v ns="$best_ns" 'BEGIN { printf "%.3f", ns / 1e9 }')
  m_rss_kb=$max_rss
  m_out=$(<"$work/best-out")
}

field() { # field KEY TEXT : the value of a "key: value" line
  awk -v k="$1:" '$1 == k { print $2; exit }' <<<"$2"
}

rows=() # "dataset|tool|docs|bytes|seconds|rss_kb"
declare -A secs rss

add_row() { # dataset key tool docs bytes
  rows+=("$1|$3|$4|$5|$m_seconds|$m_rss_kb")
  secs[$1/$2]=$m_seconds
  rss[$1/$2]=$m_rss_kb
}

load() { awk '{ print $1, $2, $3 }' /proc/loadavg; }

echo "Outlier Explorer analyze benchmark — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit $(git -C "$repo_root" rev-parse --short HEAD)$(git -C "$repo_root" diff --quiet HEAD -- core app 2>/dev/null || echo ' (core/ or app/ modified)'), $(nproc) cores, load average at start: $(load)"
echo "cli: $cli"
echo "bare walk: $bare_walk (libbson $(pkg-config --modversion libbson-1.0 2>/dev/null || echo '?'))"
if ((!skip_schema)); then
  pkg_version() { node -p "require(process.argv[1]).version" "$node_dir/node_modules/$1/package.json"; }
  echo "mongodb-schema: mongodb-schema $(pkg_version mongodb-schema), bson $(pkg_version bson), node $(node --version)"
fi
# What the CLI costs before it reads anything: Qt and the process itself (context for RSS).
measure 3 "$cli" --help
echo "outlier-explorer-cli --help (process floor): $m_seconds s, peak RSS $(awk -v kb="$m_rss_kb" 'BEGIN { printf "%.1f", kb * 1024 / 1e6 }') MB"
echo

mkdir -p "$data_dir"
for n in "${size_list[@]}"; do
  label=$(bench_label "$n")
  file=$(bench_dataset "$cli" "$data_dir" feed_bench "$n" "$seed" "$regenerate")
  bytes=$(stat -c %s "$file")
  # Same starting point for every tool: the file in the page cache.
  cat "$file" >/dev/null

  echo "[$label] bare walk ($runs runs) ..." >&2
  measure "$runs" "$bare_walk" "$file"
  [[ $(field documents "$m_out") == "$n" ]] || die "bare walk counted $(field documents "$m_out") documents, expected $n"
  add_row "$label" bare "bare walk" "$n" "$bytes"

  reports=$work/reports-$n
  echo "[$label] analyze --full ($runs runs) ..." >&2
  measure "$runs" "$cli" analyze --dump "$file" --out "$reports" --full --quiet
  docs=$(tr -d '\r' <"$reports/summary.csv" | awk -F, '$1 == "documents" { print $2 }')
  [[ $docs == "$n" ]] || die "analyze reported $docs documents, expected $n"
  add_row "$label" analyze "analyze" "$n" "$bytes"

  echo "[$label] analyze --full --threads 1 ($runs runs) ..." >&2
  measure "$runs" "$cli" analyze --dump "$file" --out "$reports" --full --threads 1 --quiet
  add_row "$label" analyze1 "analyze --threads 1" "$n" "$bytes"
  rm -rf "$reports"

  if ((!skip_schema)); then
    sr=$schema_runs
    [[ -n $sr ]] || { ((n <= 100000)) && sr=3 || sr=1; }
    echo "[$label] mongodb-schema ($sr run(s)) ..." >&2
    measure "$sr" env NODE_PATH="$node_dir/node_modules" node "$schema_js" "$file"
    [[ $(field documents "$m_out") == "$n" ]] || die "mongodb-schema read $(field documents "$m_out") documents, expected $n"
    add_row "$label" schema "mongodb-schema" "$n" "$bytes"
  fi
done

# --- report ---------------------------------------------------------------------------------
echo "Best of $runs runs (mongodb-schema: ${schema_runs:-3 up to 100k docs, 1 above}); seconds = wall"
echo "time of the whole process; peak RSS = highest of the runs (GNU time %M). MB = 10^6 bytes."
echo
printf '%-8s %-20s %9s %8s %9s %12s %9s %13s\n' dataset tool docs MB seconds docs/s MB/s "peak RSS MB"
printf '%-8s %-20s %9s %8s %9s %12s %9s %13s\n' -------- -------------------- --------- -------- --------- ------------ --------- -------------
for row in "${rows[@]}"; do
  IFS='|' read -r ds tool docs bytes s kb <<<"$row"
  awk -v ds="$ds" -v tool="$tool" -v docs="$docs" -v bytes="$bytes" -v s="$s" -v kb="$kb" 'BEGIN {
    mb = bytes / 1e6; t = (s > 0 ? s : 0.0005)
    printf "%-8s %-20s %9d %8.1f %9.3f %12.0f %9.1f %13.1f\n", ds, tool, docs, mb, s, docs / t, mb / t, kb * 1024 / 1e6
  }'
done
echo

verdict() { # verdict LABEL VALUE OP LIMIT
  awk -v label="$1" -v v="$2" -v op="$3" -v lim="$4" 'BEGIN {
    ok = (op == "<=") ? (v <= lim) : (v >= lim)
    printf "  %-44s %8.2f   target %s %-4s  %s\n", label, v, op, lim, ok ? "meets" : "misses"
  }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", (b > 0 ? a / b : 0) }'; }

echo "Targets"
labels=()
for n in "${size_list[@]}"; do
  label=$n
  ((n % 1000000 == 0)) && label=$((n / 1000000))M
  ((n % 1000000 != 0 && n % 1000 == 0)) && label=$((n / 1000))k
  labels+=("$label")
  echo " $label:"
  verdict "analyze time / bare walk time" "$(ratio "${secs[$label/analyze]}" "${secs[$label/bare]}")" "<=" 1.2
  if ((!skip_schema)); then
    verdict "mongodb-schema time / analyze time" "$(ratio "${secs[$label/schema]}" "${secs[$label/analyze]}")" ">=" 50
  else
    echo "  mongodb-schema time / analyze time             n/a (--skip-schema)"
  fi
  verdict "analyze peak RSS / bare walk peak RSS" "$(ratio "${rss[$label/analyze]}" "${rss[$label/bare]}")" "<=" 2
done
if ((${#labels[@]} >= 2)); then
  first=${labels[0]} last=${labels[-1]}
  echo " scaling:"
  verdict "analyze peak RSS $last / $first" "$(ratio "${rss[$last/analyze]}" "${rss[$first/analyze]}")" "<=" 1.2
else
  echo " scaling: analyze peak RSS 1M / 100k            n/a (needs two sizes)"
fi
echo
echo "load average at end: $(load)"
exit 0
