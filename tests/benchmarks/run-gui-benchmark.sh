#!/usr/bin/env bash
# The desktop explorer's responsiveness during a large scan: generates (once, cached) a
# feed_bench dump of N documents (default 1,000,000, ~1.2 GB) and runs bench_gui_stall on it,
# which prints the longest event-loop stall while the scan runs and while its result is shown,
# then while the migration wizard plans, applies (offline, into a temporary folder) and
# verifies a split of an activity_feeds dump (--split-docs, default 1,000: ~120 MB, with the
# demo's 100,000-element outliers)
# (target: under 50 ms). A report, not a test: exits 0 whether the target is met or missed.
#
# Usage: tests/benchmarks/run-gui-benchmark.sh [--docs N] [--split-docs N] [--build-dir DIR]
#        [--no-build]
set -euo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$script_dir/../.." && pwd)
# shellcheck source=tests/benchmarks/lib.sh
source "$script_dir/lib.sh"
die() { echo "run-gui-benchmark: $*" >&2; exit 2; }
build_dir=${OE_BUILD_DIR:-$root/build}
docs=1000000
split_docs=1000
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --docs) docs=$2; shift 2 ;;
    --split-docs) split_docs=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
if [ $build -eq 1 ]; then
  bench_build "$build_dir" "$root" bench_gui_stall outlier-explorer-cli
fi
file=$(bench_dataset "$build_dir/bin/outlier-explorer-cli" "$build_dir/bench-data" feed_bench \
  "$docs" 1 0)
split_file=$(bench_dataset "$build_dir/bin/outlier-explorer-cli" "$build_dir/bench-data" \
  activity_feeds "$split_docs" 1 0)
QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} "$build_dir/bin/bench_gui_stall" "$file" "$split_file"
