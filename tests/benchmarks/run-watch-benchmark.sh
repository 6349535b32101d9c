#!/usr/bin/env bash
# Watch benchmark: how many crossing events a second `outlier-explorer-cli watch` keeps up with
# on mongod's one-member replica set (the tests' fixture, loopback).
#
# Starts the replica set, then `watch --json` on a collection (--field items --keep KEEP), and
# once it reports its change stream, bench_watch_writer inserts DOCS documents as fast as one
# client can, one in ten over the threshold. It waits until every crossing has been reported
# and prints: the writer's rate, the events the watch reported and their rate (from the first
# write to the last event), the lag after the last write, and the watch's CPU time. The server
# reads each change once for the stream; the $match/$project on $bsonSize and $size run there,
# so the nine in ten changes under the threshold never reach the watch.
# It is a report, not a test: it exits 0 whether fast or slow (non-zero only when something
# could not be run). Nothing here is registered with CTest.
#
# Usage: tests/benchmarks/run-watch-benchmark.sh [--build-dir DIR] [--docs N] [--keep K] [--every E]
#   --build-dir DIR  CMake build dir (env OE_BUILD_DIR; default <repo>/build); the CLI, the writer
#                    and fixture_command are built there first
#   --docs N         documents written (default 200000: 20000 crossings)
#   --keep K         the array threshold (default 20)
#   --every E        one document in E crosses (default 10; 1: every write is an event, the
#                    watch's own ceiling)
set -euo pipefail
die() { echo "run-watch-benchmark: $*" >&2; exit 1; }

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${OE_BUILD_DIR:-$repo_root/build}
docs=200000
keep=20
every=10
while (($#)); do
  case $1 in
    --build-dir) build_dir=$2; shift 2 ;;
    --docs) docs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    *) die "unknown option $1" ;;
  esac
done
# shellcheck source=lib.sh
source "$repo_root/tests/benchmarks/lib.sh"
bench_build "$build_dir" "$repo_root" outlier-explorer-cli bench_watch_writer fixture_command
export OE_FIXTURE_COMMAND=$build_dir/bin/fixture_command
state=$build_dir/watch-bench-replset
work=$(mktemp -d "${TMPDIR:-/tmp}/watch-bench.XXXXXX")
watch_pid=
cleanup() {
  [[ -n $watch_pid ]] && kill "$watch_pid" 2>/dev/null || true
  bash "$repo_root/tests/live/mongod-fixture.sh" stop "$state" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
bash "$repo_root/tests/live/mongod-fixture.sh" start "$state" replset >"$work/fixture.out" ||
  { cat "$work/fixture.out" >&2; die "could not start mongod's replica set"; }
uri=$(awk -F= '$1 == "OE_TEST_URI" { sub(/^[^=]*=/, ""); print; exit }' "$state/env")
cli=$build_dir/bin/outlier-explorer-cli

"$cli" watch --uri "$uri" --db oe_watch_bench --collection feed --field items --keep "$keep" \
  --json >"$work/events" 2>"$work/status" &
watch_pid=$!
for _ in $(seq 300); do
  grep -q "with a change stream" "$work/status" && break
  sleep 0.1
done
grep -q "with a change stream" "$work/status" || die "the watch did not start: $(cat "$work/status")"

crossing=$(( (docs + every - 1) / every ))
start=$(date +%s.%N)
"$build_dir/bin/bench_watch_writer" "$uri" oe_watch_bench feed "$docs" "$keep" "$every" >"$work/writer"
written_at=$(date +%s.%N)
for _ in $(seq 6000); do
  (( $(wc -l <"$work/events") >= crossing )) && break
  sleep 0.05
done
done_at=$(date +%s.%N)
events=$(wc -l <"$work/events")
ticks=$(getconf CLK_TCK)
read -r utime stime < <(awk '{ print $14, $15 }' "/proc/$watch_pid/stat")

echo "server:            MongoDB mongod 6.0.5, one-member replica set (loopback)"
echo "writer:            $(awk '/^written/ { w = $2 } /^writes_per_s/ { r = $2 } END { printf "%d documents, %d/s (one client, insertMany of 500)", w, r }' "$work/writer")"
echo "crossings written: $crossing (one in $every documents; the rest stay under keep $keep)"
echo "events reported:   $events"
awk -v e="$events" -v s="$start" -v d="$done_at" -v w="$written_at" 'BEGIN {
  printf "watch throughput:  %.0f events/s (first write to last event, %.2f s)\n", e / (d - s), d - s
  printf "lag after writes:  %.2f s (last write to last event)\n", d - w }'
awk -v u="$utime" -v s="$stime" -v t="$ticks" -v e="$events" 'BEGIN {
  printf "watch CPU:         %.2f s user+system (%.1f us per event)\n", (u + s) / t, (u + s) / t / e * 1e6 }'
(( events >= crossing )) || echo "note: the watch reported $events of $crossing within the wait"
