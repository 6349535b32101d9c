#!/usr/bin/env bash
# Live benchmark: `outlier-explorer-cli analyze --uri ... --full` against a bare cursor drain.
#
# Starts its own server (--server: mongod by default, or FerretDB; loopback, tests/live/),
# loads feed_bench (activity feeds, ~1.2 KB documents) into it with `outlier-explorer-cli
# import`, then measures on that same server and collection, alternately, several runs each:
#   drain           bench_cursor_drain: libmongoc find({}) with the product's client settings,
#                   pulling every document and doing nothing with it (the floor)
#   analyze --full  outlier-explorer-cli analyze --uri ... --full --quiet (default threads)
# once per batch size (the driver's default, and an explicit --batch-size given to both), and
# prints wall time, docs/s, MB/s, client CPU and peak RSS, then the target:
#   analyze docs/s / drain docs/s   >= 0.9
# For attribution it also runs, in the same alternation for the first batch size, the drain
# preceded by the estimatedDocumentCount that analyze sends when it opens the collection
# (bench_cursor_drain --estimated-count): if analyze's time is about drain + count, the count
# (a server-side cost) is what separates them, not the analysis.
# It is a report, not a test: it exits 0 whether the target is met or missed (non-zero only
# when something could not be run). Nothing here is registered with CTest.
#
# Usage: tests/benchmarks/run-live-benchmark.sh [options]
#   --build-dir DIR    CMake build dir with bin/outlier-explorer-cli and bin/bench_cursor_drain
#                      (env OE_BUILD_DIR; default: <repo>/build). Both targets are built there
#                      first (cmake --build, -j2) unless --no-build.
#   --data-dir DIR     where datasets are cached between runs (env OE_BENCH_DATA;
#                      default: <build dir>/bench-data, shared with run-analyze-benchmark.sh)
#   --state-dir DIR    the started server's state (data, log) (default:
#                      <build dir>/live-bench-SERVER); the server is stopped and its data
#                      removed at exit
#   --docs N           documents to load (default 25000: FerretDB+SQLite serves ~3-4k docs/s
#                      on 2 cores, so the default run takes 3-5 minutes; 100000 takes ~12-15)
#   --quick            --docs 10000 --runs 2 (about 1 minute)
#   --runs N           runs per tool and batch size, alternating; the best is kept (default 3)
#   --batch-sizes LIST batch sizes to try, comma- or space-separated; "default" = no
#                      --batch-size, the driver's default (default: default,1000)
#   --seed S           demo-data seed (default 1)
#   --server S         the server started here: mongod (default; MongoDB 6.0.5 from
#                      packaging/install-mongod.sh) or ferretdb (FerretDB 1.24, SQLite); env
#                      OE_BENCH_SERVER
#   --uri URI          measure this server instead of starting one. The data is loaded
#                      into database oe_live_bench, collection feed_bench_N (dropped first!)
#   --no-build         use the binaries as they are
#   --regenerate       regenerate the dataset even if cached
#   --cli PATH         outlier-explorer-cli to measure (env OE_CLI; implies it is not built)
#   --drain PATH       bench_cursor_drain to use (env OE_CURSOR_DRAIN; implies it is not built)
#
# Needs: GNU time at /usr/bin/time (Debian package `time`), what ferretdb-fixture.sh needs
# (python3; FerretDB is built once per machine by packaging/install-ferretdb.sh, env
# OE_FERRETDB overrides), cmake (unless --no-build).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
# shellcheck source=tests/benchmarks/lib.sh
source "$script_dir/lib.sh"
die() { echo "run-live-benchmark: $*" >&2; exit 2; }

build_dir=${OE_BUILD_DIR:-$repo_root/build}
data_dir=${OE_BENCH_DATA:-}
state_dir=
docs=25000
runs=3
batch_sizes=default,1000
seed=1
uri=
do_build=1
regenerate=0
cli=${OE_CLI:-}
drain=${OE_CURSOR_DRAIN:-}

while (($#)); do
  case $1 in
    --build-dir) build_dir=${2:?--build-dir needs a value}; shift 2 ;;
    --data-dir) data_dir=${2:?--data-dir needs a value}; shift 2 ;;
    --state-dir) state_dir=${2:?--state-dir needs a value}; shift 2 ;;
    --docs) docs=${2:?--docs needs a value}; shift 2 ;;
    --quick) docs=10000; runs=2; shift ;;
    --runs) runs=${2:?--runs needs a value}; shift 2 ;;
    --batch-sizes) batch_sizes=${2:?--batch-sizes needs a value}; shift 2 ;;
    --seed) seed=${2:?--seed needs a value}; shift 2 ;;
    --server) BENCH_SERVER=${2:?--server needs mongod or ferretdb}; shift 2 ;;
    --uri) uri=${2:?--uri needs a value}; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --regenerate) regenerate=1; shift ;;
    --cli) cli=${2:?--cli needs a value}; shift 2 ;;
    --drain) drain=${2:?--drain needs a value}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

build_dir=$(realpath -m "$build_dir")
data_dir=$(realpath -m "${data_dir:-$build_dir/bench-data}")
[[ -z $state_dir ]] || state_dir=$(realpath -m "$state_dir")
[[ $docs =~ ^[1-9][0-9]*$ ]] || die "bad --docs: $docs"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "bad --runs: $runs"
read -r -a batch_list <<<"${batch_sizes//,/ }"
((${#batch_list[@]})) || die "--batch-sizes is empty"
for b in "${batch_list[@]}"; do
  [[ $b == default || $b =~ ^[1-9][0-9]*$ ]] || die "bad batch size: $b"
done

[[ -x /usr/bin/time ]] || die "GNU time is missing at /usr/bin/time (apt-get install time)"

# --- binaries -------------------------------------------------------------------------------
targets=()
[[ -n $cli ]] || { cli=$build_dir/bin/outlier-explorer-cli; targets+=(outlier-explorer-cli); }
[[ -n $drain ]] || { drain=$build_dir/bin/bench_cursor_drain; targets+=(bench_cursor_drain); }
if ((do_build && ${#targets[@]})); then
  bench_build "$build_dir" "$repo_root" "${targets[@]}"
fi
[[ -x $cli ]] || die "no outlier-explorer-cli at $cli"
[[ -x $drain ]] || die "no bench_cursor_drain at $drain"

# --- server and data ------------------------------------------------------------------------
bench_setup live-bench "$repo_root" "$build_dir" "$uri" "$state_dir"
work=$BENCH_WORK uri=$BENCH_URI server_desc=$BENCH_SERVER_DESC

label=$(bench_label "$docs")
file=$(bench_dataset "$cli" "$data_dir" feed_bench "$docs" "$seed" "$regenerate")
bytes=$(stat -c %s "$file")
db=oe_live_bench
coll=feed_bench_$docs

echo "Importing $docs documents into $db.$coll ..." >&2
t0=$(date +%s%N)
"$cli" import --uri "$uri" --db "$db" --collection "$coll" --dump "$file" --drop >&2 ||
  { echo "run-live-benchmark: import failed" >&2; exit 1; }
import_s=$(awk -v ns="$(($(date +%s%N) - t0))" 'BEGIN { printf "%.1f", ns / 1e9 }')

# --- measurement ----------------------------------------------------------------------------
# measure_once KEY CMD... : runs CMD once under GNU time; keeps per KEY the best wall time
# (measured around GNU time at nanosecond resolution) with that run's client CPU time and
# stdout, and the highest peak RSS of all its runs.
declare -A best_ns best_cpu max_rss best_out
measure_once() {
  local key=$1; shift
  local t0 t1 ns rss cpu_user cpu_sys
  t0=$(date +%s%N)
  if ! /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$@" >"$work/out" 2>"$work/err"; then
    echo "run-live-benchmark: failed: $*" >&2
    cat "$work/err" "$work/time" >&2 || true
    exit 1
  fi
  t1=$(date +%s%N)
  ns=$((t1 - t0))
  read -r _ rss cpu_user cpu_sys <"$work/time"
  if [[ -z ${max_rss[$key]:-} ]] || ((rss > max_rss[$key])); then max_rss[$key]=$rss; fi
  if [[ -z ${best_ns[$key]:-} ]] || ((ns < best_ns[$key])); then
    best_ns[$key]=$ns
    best_cpu[$key]=$(awk -v u="$cpu_user" -v s="$cpu_sys" 'BEGIN { printf "%.2f", u + s }')
    best_out[$key]=$(<"$work/out")
  fi
}

field() { # field KEY TEXT : the value of a "key: value" line
  awk -v k="$1:" '$1 == k { print $2; exit }' <<<"$2"
}
seconds_of() { awk -v ns="${best_ns[$1]}" 'BEGIN { printf "%.3f", ns / 1e9 }'; }
load() { awk '{ print $1, $2, $3 }' /proc/loadavg; }
batch_args() { [[ $1 == default ]] || echo "--batch-size $1"; }

echo "Outlier Explorer live analyze benchmark — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit $(git -C "$repo_root" rev-parse --short HEAD)$(git -C "$repo_root" diff --quiet HEAD -- core app 2>/dev/null || echo ' (core/ or app/ modified)'), $(nproc) cores, load average at start: $(load)"
echo "server: $server_desc; collection $db.$coll ($docs feed_bench documents, seed $seed, imported in $import_s s)"
echo "cli: $cli"
echo "drain: $drain (libmongoc $(pkg-config --modversion libmongoc-1.0 2>/dev/null || echo '?'))"
# What the CLI costs before it reads anything: Qt and the process itself.
for _ in 1 2 3; do measure_once help "$cli" --help; done
echo "outlier-explorer-cli --help (process floor): $(seconds_of help) s, peak RSS $(awk -v kb="${max_rss[help]}" 'BEGIN { printf "%.1f", kb * 1024 / 1e6 }') MB"
echo

reports=$work/reports
for ((run = 1; run <= runs; run++)); do
  for b in "${batch_list[@]}"; do
    # shellcheck disable=SC2046 # batch_args is empty or two words
    {
      echo "[$label, batch $b] run $run/$runs: drain ..." >&2
      measure_once "drain/$b" "$drain" "$uri" "$db" "$coll" $(batch_args "$b")
      got=$(field documents "${best_out[drain/$b]}")
      [[ $got == "$docs" ]] || die "drain read $got documents, expected $docs"

      echo "[$label, batch $b] run $run/$runs: analyze --full ..." >&2
      rm -rf "$reports"
      measure_once "analyze/$b" "$cli" analyze --uri "$uri" --db "$db" --collection "$coll" \
        --out "$reports" --full --quiet $(batch_args "$b")
      got=$(tr -d '\r' <"$reports/summary.csv" | awk -F, '$1 == "documents" { print $2 }')
      [[ $got == "$docs" ]] || die "analyze reported $got documents, expected $docs"
      status=$(tr -d '\r' <"$reports/summary.csv" | awk -F, '$1 == "status" { print $2 }')
      [[ $status == complete ]] || die "analyze status: $status"

      if [[ $b == "${batch_list[0]}" ]]; then
        echo "[$label, batch $b] run $run/$runs: drain --estimated-count ..." >&2
        measure_once "count/$b" "$drain" "$uri" "$db" "$coll" $(batch_args "$b") --estimated-count
      fi
    }
  done
done
b=${batch_list[0]}
count_s=$(field estimated_count_seconds "${best_out[count/$b]}")

# --- report ---------------------------------------------------------------------------------
echo "Best of $runs runs, drain and analyze alternating; seconds = wall time of the whole process;"
echo "CPU s = the client's user+sys time in the best run; peak RSS = highest of the runs (GNU time"
echo "%M). MB = 10^6 bytes. \"drain + est. count\" is a diagnostic, not a target."
echo
printf '%-8s %-20s %9s %8s %9s %10s %7s %7s %13s\n' batch tool docs MB seconds docs/s MB/s "CPU s" "peak RSS MB"
printf '%-8s %-20s %9s %8s %9s %10s %7s %7s %13s\n' -------- -------------------- --------- -------- --------- ---------- ------- ------- -------------
row() { # row BATCH TOOL KEY
  awk -v b="$1" -v tool="$2" -v docs="$docs" -v bytes="$bytes" -v s="$(seconds_of "$3")" \
    -v cpu="${best_cpu[$3]}" -v kb="${max_rss[$3]}" 'BEGIN {
    mb = bytes / 1e6; t = (s > 0 ? s : 0.0005)
    printf "%-8s %-20s %9d %8.1f %9.3f %10.0f %7.1f %7.2f %13.1f\n", b, tool, docs, mb, s, docs / t, mb / t, cpu, kb * 1024 / 1e6
  }'
}
for b in "${batch_list[@]}"; do
  row "$b" "drain" "drain/$b"
  row "$b" "analyze --full" "analyze/$b"
done
row "${batch_list[0]}" "drain + est. count" "count/${batch_list[0]}"
echo

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", (b > 0 ? a / b : 0) }'; }
verdict() { # verdict LABEL VALUE OP LIMIT
  awk -v label="$1" -v v="$2" -v op="$3" -v lim="$4" 'BEGIN {
    ok = (op == "<=") ? (v <= lim) : (v >= lim)
    printf "  %-44s %8.2f   target %s %-4s  %s\n", label, v, op, lim, ok ? "meets" : "misses"
  }'
}
echo "Target ($label documents; docs/s ratio = drain seconds / analyze seconds)"
for b in "${batch_list[@]}"; do
  verdict "batch $b: analyze docs/s / drain docs/s" "$(ratio "${best_ns[drain/$b]}" "${best_ns[analyze/$b]}")" ">=" 0.9
done
if ((${#batch_list[@]} >= 2)); then
  echo " batch size (drain docs/s with batch B / with batch ${batch_list[0]}; analyze likewise):"
  for b in "${batch_list[@]:1}"; do
    awk -v b="$b" -v d="$(ratio "${best_ns[drain/${batch_list[0]}]}" "${best_ns[drain/$b]}")" \
      -v a="$(ratio "${best_ns[analyze/${batch_list[0]}]}" "${best_ns[analyze/$b]}")" \
      'BEGIN { printf "  batch %-8s drain %.2fx, analyze %.2fx\n", b, d, a }'
  done
fi
b=${batch_list[0]}
awk -v a="$(seconds_of "analyze/$b")" -v d="$(seconds_of "drain/$b")" -v dc="$(seconds_of "count/$b")" \
  -v c="$count_s" -v b="$b" 'BEGIN {
  printf " where the analyze time goes (batch %s):\n", b
  printf "  estimatedDocumentCount alone (in the best drain + est. count run)   %8.2f s\n", c
  printf "  analyze time / (drain + est. count) time                           %8.2f\n", (dc > 0 ? a / dc : 0)
  printf "  analyze docs/s / drain docs/s, estimating analyze without the count %7.2f\n", (a - c > 0 ? d / (a - c) : 0)
}'
echo
echo "load average at end: $(load)"
exit 0
