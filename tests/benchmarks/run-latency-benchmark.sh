#!/usr/bin/env bash
# Network benchmark: the split, the live analysis and the parallel scan with real round-trip
# costs. Starts one server (mongod, or --server ferretdb) and Shopify's toxiproxy (packaging/install-toxiproxy.sh) in front of
# it, and for each added latency (a `latency` toxic on the server's replies, so every round trip
# pays it once) runs, through the proxy:
#   split     run-split-benchmark.sh: `split --yes` vs the naive loop (target >= 10x)
#   analyze   run-live-benchmark.sh: `analyze --full` vs the bare cursor drain (target >= 0.9x)
#   parallel  run-parallel-benchmark.sh: `analyze --full --parallel 1,2` vs the drain
# and prints each one's table under a heading naming the latency, then a one-line summary of
# the ratios per latency. A report, not a test; nothing here is in CTest.
#
# Usage: tests/benchmarks/run-latency-benchmark.sh [options]
#   --build-dir DIR    CMake build dir (env OE_BUILD_DIR; default <repo>/build)
#   --latencies LIST   added milliseconds per round trip, comma-separated (default 0,1,5)
#   --split-docs N     book_sales documents for the split (default 2000)
#   --scan-docs N      feed_bench documents for analyze and the parallel scan (default 10000)
#   --only LIST        any of split,analyze,parallel (default all three)
#   --server S         the server started here: mongod (default; MongoDB 6.0.5 from
#                      packaging/install-mongod.sh) or ferretdb (FerretDB 1.24, SQLite); env
#                      OE_BENCH_SERVER
#   --no-build         use the binaries as they are
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)
# shellcheck source=tests/benchmarks/lib.sh
source "$script_dir/lib.sh"
die() { echo "run-latency-benchmark: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

build_dir=${OE_BUILD_DIR:-$repo_root/build}
latencies=0,1,5
split_docs=2000
scan_docs=10000
only=split,analyze,parallel
do_build=1
while (($#)); do
  case $1 in
    --build-dir) build_dir=$2; shift 2 ;;
    --latencies) latencies=$2; shift 2 ;;
    --split-docs) split_docs=$2; shift 2 ;;
    --scan-docs) scan_docs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --server) BENCH_SERVER=${2:?--server needs mongod or ferretdb}; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
command -v curl >/dev/null || die "needs curl (toxiproxy's API)"
((do_build)) && bench_build "$build_dir" "$repo_root" outlier-explorer-cli bench_cursor_drain \
  bench_naive_split

bench_setup latency-bench "$repo_root" "$build_dir" ""
toxiproxy=$(bash "$repo_root/packaging/install-toxiproxy.sh" | tail -n 1)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
api_port=$(free_port)
listen_port=$(free_port)
"$toxiproxy" -host 127.0.0.1 -port "$api_port" >"$BENCH_WORK/toxiproxy.log" 2>&1 &
toxi_pid=$!
trap 'kill $toxi_pid 2>/dev/null || true; bench_cleanup' EXIT
api="http://127.0.0.1:$api_port"
for _ in $(seq 50); do curl -fs "$api/version" >/dev/null 2>&1 && break; sleep 0.1; done
server=$(python3 -c 'import sys,urllib.parse as u; print(u.urlparse(sys.argv[1]).netloc.split("@")[-1].split(",")[0])' "$BENCH_URI")
curl -fs -X POST "$api/proxies" -d "{\"name\":\"mongo\",\"listen\":\"127.0.0.1:$listen_port\",\"upstream\":\"$server\"}" >/dev/null ||
  die "could not create the proxy"
proxy_uri="mongodb://127.0.0.1:$listen_port/?directConnection=true"

set_latency() {
  curl -fs -X DELETE "$api/proxies/mongo/toxics/rtt" >/dev/null 2>&1 || true
  if (($1 > 0)); then
    curl -fs -X POST "$api/proxies/mongo/toxics" \
      -d "{\"name\":\"rtt\",\"type\":\"latency\",\"stream\":\"downstream\",\"attributes\":{\"latency\":$1,\"jitter\":0}}" \
      >/dev/null || die "could not add a latency of $1 ms"
  fi
}

# Runs a benchmark script, shows its report as it comes, and keeps it in $out.
run_bench() {
  local name=$1
  shift
  bash "$script_dir/$name" "$@" >"$BENCH_WORK/report.out"
  cat "$BENCH_WORK/report.out"
  out=$(cat "$BENCH_WORK/report.out")
}

summary=()
IFS=, read -r -a lat_list <<<"$latencies"
for ms in "${lat_list[@]}"; do
  set_latency "$ms"
  echo
  echo "################ +$ms ms per round trip (toxiproxy latency toxic, $BENCH_SERVER_DESC) ################"
  line="+$ms ms:"
  if [[ ,$only, == *,split,* ]]; then
    run_bench run-split-benchmark.sh --no-build --build-dir "$build_dir" \
      --uri "$proxy_uri" --docs "$split_docs" --runs 1
    line+=" split/naive $(awk '/split docs\/s \/ naive docs\/s/ { print $(NF-4); exit }' <<<"$out")x;"
  fi
  if [[ ,$only, == *,analyze,* ]]; then
    run_bench run-live-benchmark.sh --no-build --build-dir "$build_dir" \
      --uri "$proxy_uri" --docs "$scan_docs" --runs 2 --batch-sizes default
    line+=" analyze/drain $(awk '/analyze docs\/s \/ drain docs\/s/ { print $(NF-4); exit }' <<<"$out")x;"
  fi
  if [[ ,$only, == *,parallel,* ]]; then
    run_bench run-parallel-benchmark.sh --no-build --build-dir "$build_dir" \
      --uri "$proxy_uri" --docs "$scan_docs" --runs 1
    line+=" docs/s$(awk '$1 == "drain" || $1 == "analyze" { printf " %s %s", $1, $3 } $1 == "parallel" { printf " parallel-%s %s", $2, $4 }' <<<"$out")"
  fi
  summary+=("$line")
done
echo
echo "Summary (docs/s ratios; the proxy adds the latency to every reply):"
printf '  %s\n' "${summary[@]}"
