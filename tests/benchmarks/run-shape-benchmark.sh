#!/usr/bin/env bash
# The shape analysis (issue 37) on hostile shapes: bounded memory, whatever the keys, depth or
# width. bench_hostile_shapes writes three dumps (cached under the data dir):
#   million_keys  1,000 documents of 1,000 distinct numeric keys each: a million distinct keys
#   deep          1,000 documents nested 100 levels deep
#   wide          10 documents of 100,000 top-level fields each
# and for each, `analyze --full` runs (best of --runs) beside bench_bare_walk; the table gives
# seconds, peak RSS (GNU time), the paths fields.csv lists and the CLI's shape line. Target:
# peak RSS <= 64 MB on each (the CLI's own is ~10 MB before it reads anything). The speed
# target of the analysis with the shape on (<= 1.2x the bare walk) is run-analyze-benchmark.sh's.
# A report, not a test: it exits 0 whether the target is met or not.
#
# Usage: tests/benchmarks/run-shape-benchmark.sh [--build-dir DIR] [--data-dir DIR] [--runs N]
#                                                [--no-build]
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)
die() { echo "run-shape-benchmark: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

build_dir=${OE_BUILD_DIR:-$repo_root/build}
data_dir=${OE_BENCH_DATA:-}
runs=3
do_build=1
while (($#)); do
  case $1 in
    --build-dir) build_dir=${2:?--build-dir needs a value}; shift 2 ;;
    --data-dir) data_dir=${2:?--data-dir needs a value}; shift 2 ;;
    --runs) runs=${2:?--runs needs a value}; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "bad --runs: $runs"
[[ -x /usr/bin/time ]] || die "GNU time is missing at /usr/bin/time (apt-get install time)"
build_dir=$(realpath -m "$build_dir")
data_dir=$(realpath -m "${data_dir:-$build_dir/bench-data}/hostile-shapes")
cli=$build_dir/bin/outlier-explorer-cli
walk=$build_dir/bin/bench_bare_walk
gen=$build_dir/bin/bench_hostile_shapes
if ((do_build)); then
  cmake --build "$build_dir" --target outlier-explorer-cli bench_bare_walk bench_hostile_shapes \
    -j2 >&2
fi
for b in "$cli" "$walk" "$gen"; do [[ -x $b ]] || die "no $b (build it, or drop --no-build)"; done
mkdir -p "$data_dir"
[[ -f $data_dir/wide.bson ]] || "$gen" "$data_dir" >/dev/null || die "could not write the dumps"

work=$(mktemp -d "${TMPDIR:-/tmp}/oe-shape-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# best RUNS CMD...: the best wall time (s) and the highest peak RSS (MB) of RUNS runs.
best() {
  local n=$1 i secs rss best_s="" max_rss=0; shift
  for ((i = 0; i < n; i++)); do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" ||
      die "failed: $* ($(tail -n 1 "$work/err"))"
    read -r secs rss <"$work/time"
    [[ -z $best_s ]] || awk -v a="$secs" -v b="$best_s" 'BEGIN { exit !(a < b) }' && best_s=$secs
    ((rss > max_rss)) && max_rss=$rss
  done
  echo "$best_s $((max_rss / 1024))"
}

echo "Outlier Explorer shape benchmark — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(git -C "$repo_root" rev-parse --short HEAD)"
echo
echo "| dump | docs | MB | bare walk s | analyze s | analyze peak RSS MB | fields.csv paths | shape |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
met=1
for name in million_keys deep wide; do
  file=$data_dir/$name.bson
  mb=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", b / 1e6 }')
  read -r walk_s _ < <(best "$runs" "$walk" "$file")
  read -r analyze_s rss < <(best "$runs" "$cli" analyze --dump "$file" --full --no-history \
    --out "$work/$name")
  docs=$(awk -F, '$1 == "documents" { print $2 }' "$work/$name/summary.csv")
  paths=$(($(wc -l <"$work/$name/fields.csv") - 1))
  shape=$(grep '^shape' "$work/out" | head -n 1)
  echo "| $name | $docs | $mb | $walk_s | $analyze_s | $rss | $paths | ${shape#shape: } |"
  ((rss <= 64)) || met=0
done
echo
((met)) && echo "Target: peak RSS <= 64 MB on every hostile shape: met" ||
  echo "Target: peak RSS <= 64 MB on every hostile shape: MISSED"
