#!/usr/bin/env bash
# Benchmark of parallel full scans: `analyze --full --parallel N` against the single cursor and
# the bare cursor drain, on one collection of a server started here (mongod, or --server ferretdb; or --uri).
#
# Imports feed_bench (activity feeds, ~1.2 KB documents) with `outlier-explorer-cli import`,
# then measures, best of --runs each:
#   drain            bench_cursor_drain: find({}) drained with the product's client settings
#   analyze          analyze --full (one cursor, natural order)
#   parallel N       analyze --full --parallel N, for each N of --parallel (default 1,2)
# and prints wall seconds, docs/s, the client's CPU seconds (user+sys), the server's CPU
# seconds over the same run (from /proc, when the script started the server) and peak RSS, so
# the table says which side is the bound. A report, not a test; nothing here is in CTest.
#
# Usage: tests/benchmarks/run-parallel-benchmark.sh [options]
#   --build-dir DIR   CMake build dir (env OE_BUILD_DIR; default <repo>/build)
#   --docs N          documents (default 1000000)
#   --parallel LIST   range counts, comma-separated (default 1,2)
#   --runs N          runs of each (default 2)
#   --server S         the server started here: mongod (default; MongoDB 6.0.5 from
#                      packaging/install-mongod.sh) or ferretdb (FerretDB 1.24, SQLite); env
#                      OE_BENCH_SERVER
#   --uri URI         measure on this server instead of starting one (server CPU unknown)
#   --socket-timeout-ms MS  socketTimeoutMS for every measured client (e.g. 3600000). FerretDB 1.x
#                     sorts a whole range before its first batch: at 100k documents and more,
#                     --parallel 2 needs more than the default 120 s
#   --no-build        use the binaries as they are
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)
# shellcheck source=tests/benchmarks/lib.sh
source "$script_dir/lib.sh"
die() { echo "run-parallel-benchmark: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

build_dir=${OE_BUILD_DIR:-$repo_root/build}
docs=1000000
parallel_list=1,2
runs=2
uri=
socket_timeout=
do_build=1
while (($#)); do
  case $1 in
    --build-dir) build_dir=$2; shift 2 ;;
    --docs) docs=$2; shift 2 ;;
    --parallel) parallel_list=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --server) BENCH_SERVER=${2:?--server needs mongod or ferretdb}; shift 2 ;;
    --uri) uri=$2; shift 2 ;;
    --socket-timeout-ms) socket_timeout=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
[[ -x /usr/bin/time ]] || die "needs GNU time at /usr/bin/time (Debian package 'time')"
((do_build)) && bench_build "$build_dir" "$repo_root" outlier-explorer-cli bench_cursor_drain
cli=$build_dir/bin/outlier-explorer-cli
drain=$build_dir/bin/bench_cursor_drain
bench_setup parallel-bench "$repo_root" "$build_dir" "$uri"
server_pid=$BENCH_SERVER_PID

file=$(bench_dataset "$cli" "$build_dir/bench-data" feed_bench "$docs" 1 0)
db=oe_parallel_bench
coll=feed_bench_$docs
echo "Importing $file into $db.$coll ..." >&2
t0=$(date +%s%N)
"$cli" import --uri "$BENCH_URI" --db "$db" --collection "$coll" --dump "$file" --drop >&2
import_s=$(awk -v ns="$(($(date +%s%N) - t0))" 'BEGIN { printf "%.1f", ns / 1e9 }')

server_cpu() { # the server's user+sys seconds so far
  [[ -n $server_pid ]] || { echo 0; return; }
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$server_pid/stat"
}
declare -A best_wall best_line
measure() { # NAME COMMAND...: one run; keeps the best wall time and its row
  local name=$1; shift
  local before after out
  before=$(server_cpu)
  /usr/bin/time -o "$BENCH_WORK/time.out" -f '%e %U %S %M' "$@" >/dev/null 2>&1 || die "$name failed: $*"
  out=$(tail -n 1 "$BENCH_WORK/time.out")
  after=$(server_cpu)
  read -r wall user sys rss <<<"$out"
  local line
  line=$(awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
    -v sb="$before" -v sa="$after" -v d="$docs" \
    'BEGIN { printf "%-14s %8.2f %10.0f %10.2f %10.2f %8.0f", n, w, d / w, u + s, sa - sb, r / 1024 }')
  echo "  $line" >&2 # as it comes: a long run that fails later keeps what it measured
  if [[ -z ${best_wall[$name]:-} ]] || awk -v a="$wall" -v b="${best_wall[$name]}" 'BEGIN { exit !(a < b) }'; then
    best_wall[$name]=$wall
    best_line[$name]=$line
  fi
}

scan_uri=$BENCH_URI
if [[ -n $socket_timeout ]]; then
  [[ $scan_uri == *\?* ]] && scan_uri+="&" || { [[ $scan_uri == */ ]] || scan_uri+=/; scan_uri+="?"; }
  scan_uri+="socketTimeoutMS=$socket_timeout"
fi

names=(drain analyze)
IFS=', ' read -r -a plist <<<"$parallel_list"
for n in "${plist[@]}"; do names+=("parallel $n"); done
for ((run = 1; run <= runs; run++)); do
  echo "run $run/$runs ..." >&2
  measure drain "$drain" "$scan_uri" "$db" "$coll"
  measure analyze "$cli" analyze --uri "$scan_uri" --db "$db" --collection "$coll" --full --quiet \
    --out "$BENCH_WORK/single"
  for n in "${plist[@]}"; do
    measure "parallel $n" "$cli" analyze --uri "$scan_uri" --db "$db" --collection "$coll" --full \
      --parallel "$n" --quiet --out "$BENCH_WORK/p$n"
  done
done
for n in "${plist[@]}"; do
  diff <(grep -v '^seconds,' "$BENCH_WORK/p${plist[0]}/summary.csv") \
    <(grep -v '^seconds,' "$BENCH_WORK/p$n/summary.csv") >/dev/null ||
    die "summary.csv of --parallel $n differs from --parallel ${plist[0]}"
done

echo "Outlier Explorer parallel scan benchmark — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
echo "server: $BENCH_SERVER_DESC; $db.$coll: $docs feed_bench documents (imported in $import_s s)"
echo "Best of $runs runs. client CPU = the measured process (user+sys); server CPU = the server's over the run ($BENCH_SERVER_DESC)."
printf '%-14s %8s %10s %10s %10s %8s\n' tool seconds docs/s client_cpu server_cpu rss_mb
for name in "${names[@]}"; do echo "${best_line[$name]}"; done
