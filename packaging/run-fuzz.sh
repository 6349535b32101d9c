#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset fuzz: clang, -fsanitize=fuzzer,address,undefined,
# core library only, in build-fuzz/) and runs each for a bounded time on a copy of its corpus in
# tests/fuzz/corpus/ plus the reproducers in tests/fuzz/findings/ (the repository is not
# modified). The targets run side by side, one per
# core. Exits non-zero on any finding: a crash, a sanitizer report, a leak, a timeout, running
# out of memory, or a failed oracle; the input that caused it is saved in build-fuzz/findings/.
#
#   OE_FUZZ_SECONDS   seconds per target (default 60; 0 skips fuzzing)
#   OE_FUZZ_MAX_LEN   largest input in bytes (default 16384)
#   OE_FUZZ_TARGETS   the targets to run (default: fuzz_dumpreader fuzz_offlinesplit)
#   OE_FUZZ_KEEP      a directory: the grown corpora are copied there (to minimise and commit)
#   OE_FUZZ_KNOWN     ';'-separated texts of known findings to look past (never set in CI)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${OE_FUZZ_SECONDS:-60}"
max_len="${OE_FUZZ_MAX_LEN:-16384}"
targets="${OE_FUZZ_TARGETS:-fuzz_dumpreader fuzz_offlinesplit}"
if [ "$seconds" = 0 ]; then
  echo "fuzz: skipped (OE_FUZZ_SECONDS=0)"
  exit 0
fi

cmake --preset fuzz --no-warn-unused-cli >/dev/null  # CMAKE_C_COMPILER: the project is C++ only
cmake --build --preset fuzz

# Scratch files (each input is written to a dump file, split, rolled back) go to tmpfs when
# there is one: the split fsyncs its output.
base="${TMPDIR:-/tmp}"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then base=/dev/shm; fi
work="$(mktemp -d "$base/oe-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
findings="$PWD/build-fuzz/findings"
mkdir -p "$findings"

declare -A pids
for target in $targets; do
  corpus="$work/corpus/$target"
  mkdir -p "$corpus" "$work/tmp-$target"
  cp tests/fuzz/corpus/"$target"/* "$corpus"/
  # The reproducers of earlier findings run first, every time: fixed bugs stay fixed.
  if [ -d tests/fuzz/findings/"$target" ]; then cp tests/fuzz/findings/"$target"/* "$corpus"/; fi
  # detect_leaks: LeakSanitizer after every input that allocated more than it freed.
  TMPDIR="$work/tmp-$target" \
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "build-fuzz/bin/$target" -max_total_time="$seconds" -max_len="$max_len" -timeout=20 \
    -rss_limit_mb=2048 -dict=tests/fuzz/bson.dict -print_final_stats=1 \
    -artifact_prefix="$findings/$target-" "$corpus" >"$work/$target.log" 2>&1 &
  pids[$target]=$!
done

status=0
for target in $targets; do
  rc=0
  wait "${pids[$target]}" || rc=$?
  log="$work/$target.log"
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
  size="$(find "$work/corpus/$target" -type f | wc -l)"
  echo "fuzz: $target: ${runs:-?} executions (${rate:-?}/s; limit ${seconds} s), corpus $size inputs, exit $rc"
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "fuzz: $target: FINDING (inputs in $findings); the end of its log:" >&2
    tail -n 80 "$log" >&2
  fi
  if [ -n "${OE_FUZZ_KEEP:-}" ]; then
    mkdir -p "$OE_FUZZ_KEEP/$target"
    cp "$work/corpus/$target"/* "$OE_FUZZ_KEEP/$target"/
  fi
done
exit $status
