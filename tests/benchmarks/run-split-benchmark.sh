#!/usr/bin/env bash
# Split benchmark: `outlier-explorer-cli split --uri ... --yes` against the naive loop.
#
# Starts its own server (--server: mongod by default, or FerretDB; loopback, tests/live/),
# generates book_sales (the MongoDB manual's outlier-pattern example: `customers_purchased`
# arrays, 4% best sellers with 60-5000 buyers), and per run imports it into two collections
# of identical data, one per tool, then applies the same split (keep 50, page size 100) to each:
#   split --yes   outlier-explorer-cli split (journal, unique page index, bulk page inserts,
#                 guarded bulk trims, trims confirmed; --batch documents per round)
#   naive loop    bench_naive_split: the pattern write-ups' way, one command per round trip
#                 (find the ids; per document findOne, insertOne per page, updateOne)
# After each split it runs `verify` (it must report 0 mismatches) and checks that the naive
# loop split as many documents into as many pages. Prints both tools' docs/s (documents split
# per second of wall time of the whole process), then the target:
#   split docs/s / naive docs/s   >= 10
# and the script's total wall time. It is a report, not a test: it exits 0 whether the target
# is met or missed (non-zero only when something could not be run). Nothing here is in CTest.
#
# Usage: tests/benchmarks/run-split-benchmark.sh [options]
#   --build-dir DIR    CMake build dir with bin/outlier-explorer-cli and bin/bench_naive_split
#                      (env OE_BUILD_DIR; default: <repo>/build). Both targets are built there
#                      first (cmake --build, -j2) unless --no-build.
#   --data-dir DIR     where datasets are cached between runs (env OE_BENCH_DATA;
#                      default: <build dir>/bench-data, shared with the other benchmarks)
#   --state-dir DIR    the started server's state (data, log) (default:
#                      <build dir>/split-bench-SERVER); the server is stopped and its data
#                      removed at exit
#   --docs N           book_sales documents (default 4000: ~160 to split, ~1,900 pages; about
#                      2-3 minutes in all on 2 cores). FerretDB 1.24 (SQLite) finds no document
#                      by index, not even by _id, so every document either tool writes costs a
#                      scan of the whole collection: time grows with N squared (2000: ~30 s,
#                      8000: ~8 minutes), and the ratio is bounded (see tests/benchmarks/README.md, "Split
#                      benchmark").
#   --quick            --docs 2000 --runs 1
#   --runs N           runs per tool, alternating, re-importing before each; the best is kept
#                      (default 2)
#   --keep N           elements left in each document (default 50, the manual's threshold)
#   --page-size P      elements per overflow page (default 100)
#   --batch N|default  the split's --batch (default: none given, the CLI's own 200). Commands
#                      write at most 50 documents whatever the batch (FerretDB 1.24 deadlocks
#                      on update commands of ~100 matched statements), paced to the server.
#   --seed S           demo-data seed (default 1)
#   --server S         the server started here: mongod (default; MongoDB 6.0.5 from
#                      packaging/install-mongod.sh) or ferretdb (FerretDB 1.24, SQLite); env
#                      OE_BENCH_SERVER
#   --uri URI          measure this server instead of starting one. Uses database
#                      oe_split_bench, collections book_sales_ours* and book_sales_naive*
#                      (dropped first!) and leaves them there
#   --strace           also run one extra split (not timed) under strace and print where its
#                      time goes, command by command (needs strace and python3)
#   --no-build         use the binaries as they are
#   --regenerate       regenerate the dataset even if cached
#   --cli PATH         outlier-explorer-cli to measure (env OE_CLI; implies it is not built)
#   --naive PATH       bench_naive_split to use (env OE_NAIVE_SPLIT; implies it is not built)
#
# Needs: GNU time at /usr/bin/time (Debian package `time`), what ferretdb-fixture.sh needs
# (python3; FerretDB is built once per machine by packaging/install-ferretdb.sh, env
# OE_FERRETDB overrides), cmake (unless --no-build), strace (only with --strace).
set -euo pipefail

script_start=$(date +%s%N)
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
# shellcheck source=tests/benchmarks/lib.sh
source "$script_dir/lib.sh"
die() { echo "run-split-benchmark: $*" >&2; exit 2; }

build_dir=${OE_BUILD_DIR:-$repo_root/build}
data_dir=${OE_BENCH_DATA:-}
state_dir=
docs=4000
runs=2
keep=50
page_size=100
batch=default
seed=1
uri=
do_strace=0
do_build=1
regenerate=0
cli=${OE_CLI:-}
naive=${OE_NAIVE_SPLIT:-}

while (($#)); do
  case $1 in
    --build-dir) build_dir=${2:?--build-dir needs a value}; shift 2 ;;
    --data-dir) data_dir=${2:?--data-dir needs a value}; shift 2 ;;
    --state-dir) state_dir=${2:?--state-dir needs a value}; shift 2 ;;
    --docs) docs=${2:?--docs needs a value}; shift 2 ;;
    --quick) docs=2000; runs=1; shift ;;
    --runs) runs=${2:?--runs needs a value}; shift 2 ;;
    --keep) keep=${2:?--keep needs a value}; shift 2 ;;
    --page-size) page_size=${2:?--page-size needs a value}; shift 2 ;;
    --batch) batch=${2:?--batch needs a value}; shift 2 ;;
    --seed) seed=${2:?--seed needs a value}; shift 2 ;;
    --server) BENCH_SERVER=${2:?--server needs mongod or ferretdb}; shift 2 ;;
    --uri) uri=${2:?--uri needs a value}; shift 2 ;;
    --strace) do_strace=1; shift ;;
    --no-build) do_build=0; shift ;;
    --regenerate) regenerate=1; shift ;;
    --cli) cli=${2:?--cli needs a value}; shift 2 ;;
    --naive) naive=${2:?--naive needs a value}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

build_dir=$(realpath -m "$build_dir")
data_dir=$(realpath -m "${data_dir:-$build_dir/bench-data}")
[[ -z $state_dir ]] || state_dir=$(realpath -m "$state_dir")
[[ $docs =~ ^[1-9][0-9]*$ ]] || die "bad --docs: $docs"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "bad --runs: $runs"
[[ $keep =~ ^[0-9]+$ ]] || die "bad --keep: $keep"
[[ $page_size =~ ^[1-9][0-9]*$ ]] || die "bad --page-size: $page_size"
[[ $batch == default || $batch =~ ^[1-9][0-9]*$ ]] || die "bad --batch: $batch"
[[ $seed =~ ^[0-9]+$ ]] || die "bad --seed: $seed"

[[ -x /usr/bin/time ]] || die "GNU time is missing at /usr/bin/time (apt-get install time)"
if ((do_strace)); then
  command -v strace >/dev/null || die "--strace needs strace (apt-get install strace)"
  command -v python3 >/dev/null || die "--strace needs python3"
fi

# --- binaries -------------------------------------------------------------------------------
targets=()
[[ -n $cli ]] || { cli=$build_dir/bin/outlier-explorer-cli; targets+=(outlier-explorer-cli); }
[[ -n $naive ]] || { naive=$build_dir/bin/bench_naive_split; targets+=(bench_naive_split); }
if ((do_build && ${#targets[@]})); then
  bench_build "$build_dir" "$repo_root" "${targets[@]}"
fi
[[ -x $cli ]] || die "no outlier-explorer-cli at $cli"
[[ -x $naive ]] || die "no bench_naive_split at $naive"

# --- server and data ------------------------------------------------------------------------
bench_setup split-bench "$repo_root" "$build_dir" "$uri" "$state_dir"
work=$BENCH_WORK uri=$BENCH_URI server_desc=$BENCH_SERVER_DESC

label=$(bench_label "$docs")
file=$(bench_dataset "$cli" "$data_dir" book_sales "$docs" "$seed" "$regenerate")
bytes=$(stat -c %s "$file")
db=oe_split_bench
ours=book_sales_ours
naive_coll=book_sales_naive
field=customers_purchased
batch_args=()
[[ $batch == default ]] || batch_args=(--batch "$batch")

# Clean collections (the sources, the overflow pages, the split's journal), then the data.
reset_collections() { # reset_collections COLLECTION...
  local names=() c
  for c in "$@"; do names+=("$c" "${c}_overflow" "${c}_outlier_migrations"); done
  "$naive" --drop "$uri" "$db" "${names[@]}" || die "could not drop the benchmark's collections"
}
import_into() { # import_into COLLECTION
  "$cli" import --uri "$uri" --db "$db" --collection "$1" --dump "$file" --drop >"$work/import" 2>&1 ||
    { cat "$work/import" >&2; echo "run-split-benchmark: import into $db.$1 failed" >&2; exit 1; }
}

# --- measurement ----------------------------------------------------------------------------
# measure_once KEY CMD... : runs CMD once under GNU time; keeps per KEY the best wall time
# (measured around GNU time at nanosecond resolution) with that run's client CPU time and
# stdout, and the highest peak RSS of all its runs. On failure it prints what it can and
# exits 1 (with a hint when it looks like the FerretDB connection-pool stall).
declare -A best_ns best_cpu max_rss best_out
last_out=
measure_once() {
  local key=$1; shift
  local t0 t1 ns rss cpu_user cpu_sys
  t0=$(date +%s%N)
  if ! /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$@" >"$work/out" 2>"$work/err"; then
    echo "run-split-benchmark: failed: $*" >&2
    cat "$work/out" "$work/err" "$work/time" >&2 || true
    exit 1
  fi
  t1=$(date +%s%N)
  ns=$((t1 - t0))
  last_out=$(<"$work/out")
  read -r _ rss cpu_user cpu_sys <"$work/time"
  if [[ -z ${max_rss[$key]:-} ]] || ((rss > max_rss[$key])); then max_rss[$key]=$rss; fi
  if [[ -z ${best_ns[$key]:-} ]] || ((ns < best_ns[$key])); then
    best_ns[$key]=$ns
    best_cpu[$key]=$(awk -v u="$cpu_user" -v s="$cpu_sys" 'BEGIN { printf "%.2f", u + s }')
    best_out[$key]=$last_out
  fi
}

field_of() { # field_of KEY TEXT : the value of a "key: value" line
  awk -v k="$1:" '$1 == k { print $2; exit }' <<<"$2"
}
seconds_of() { awk -v ns="${best_ns[$1]}" 'BEGIN { printf "%.3f", ns / 1e9 }'; }
load() { awk '{ print $1, $2, $3 }' /proc/loadavg; }
# From split's summary line: "split 1,234 document(s) of db.c: 5,678 element(s) moved into
# 90 page(s) of ...; 0 retried, 0 skipped; 12.34 s" -> "documents elements pages seconds".
split_summary() {
  sed -n 's/^split \([0-9,]*\) document(s) of .*: \([0-9,]*\) element(s) moved into \([0-9,]*\) page(s) of .*; \([0-9.]*\) s$/\1 \2 \3 \4/p' <<<"$1" |
    tr -d ',' | head -n 1
}

echo "Outlier Explorer split benchmark — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit $(git -C "$repo_root" rev-parse --short HEAD)$(git -C "$repo_root" diff --quiet HEAD -- core app 2>/dev/null || echo ' (core/ or app/ modified)'), $(nproc) cores, load average at start: $(load)"
echo "server: $server_desc"
echo "data: $docs book_sales documents (seed $seed, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB), imported into $db.$ours and $db.$naive_coll before each run"
echo "split: --field $field --keep $keep --page-size $page_size ${batch_args[*]:---batch (CLI default)}"
echo "cli: $cli"
echo "naive: $naive (libmongoc $(pkg-config --modversion libmongoc-1.0 2>/dev/null || echo '?'))"
echo

split_docs='' split_pages='' split_elems=''
declare -A apply_s
for ((run = 1; run <= runs; run++)); do
  echo "[$label] run $run/$runs: importing $docs documents twice ..." >&2
  reset_collections "$ours" "$naive_coll"
  import_into "$ours"
  import_into "$naive_coll"

  echo "[$label] run $run/$runs: split --yes ..." >&2
  measure_once split "$cli" split --uri "$uri" --db "$db" --collection "$ours" --field "$field" \
    --keep "$keep" --page-size "$page_size" "${batch_args[@]}" --yes
  read -r d e p s <<<"$(split_summary "$last_out")" || true
  [[ -n ${d:-} ]] || die "could not read split's summary: $last_out"
  [[ -z $split_docs || $d == "$split_docs" ]] || die "split split $d documents, $split_docs before"
  split_docs=$d split_elems=$e split_pages=$p
  if [[ -z ${apply_s[split]:-} ]] || awk -v a="$s" -v b="${apply_s[split]}" 'BEGIN { exit !(a < b) }'; then
    apply_s[split]=$s
  fi
  ((split_docs > 0)) || die "split split no documents: nothing to measure (more --docs?)"

  echo "[$label] run $run/$runs: verify ..." >&2
  "$cli" verify --uri "$uri" --db "$db" --collection "$ours" --field "$field" >"$work/verify" 2>&1 ||
    { cat "$work/verify" >&2; echo "run-split-benchmark: verify failed after the split" >&2; exit 1; }
  verify_line=$(grep '^checked:' "$work/verify" | head -n 1)
  mismatches=$(sed -n 's/.*mismatches: \([0-9,]*\).*/\1/p' <<<"$verify_line" | tr -d ',')
  checked=$(sed -n 's/^checked: \([0-9,]*\),.*/\1/p' <<<"$verify_line" | tr -d ',')
  [[ $mismatches == 0 && $checked == "$split_docs" ]] ||
    { cat "$work/verify" >&2; die "verify: checked $checked of $split_docs, mismatches $mismatches"; }

  echo "[$label] run $run/$runs: naive loop ..." >&2
  measure_once naive "$naive" "$uri" "$db" "$naive_coll" "$field" "$keep" "$page_size"
  nd=$(field_of documents "$last_out") np=$(field_of pages "$last_out") ne=$(field_of elements_moved "$last_out")
  [[ $nd == "$split_docs" && $np == "$split_pages" && $ne == "$split_elems" ]] ||
    die "the naive loop split $nd documents into $np pages ($ne elements); split: $split_docs, $split_pages ($split_elems)"
done

# --- optional: where split's time goes ------------------------------------------------------
if ((do_strace)); then
  echo "[$label] strace: one more split, traced (not timed) ..." >&2
  reset_collections "$ours"
  import_into "$ours"
  strace -f -tt -s 200 -e trace=sendmsg,sendto,recvfrom,recvmsg -o "$work/strace" \
    "$cli" split --uri "$uri" --db "$db" --collection "$ours" --field "$field" \
    --keep "$keep" --page-size "$page_size" "${batch_args[@]}" --yes >"$work/strace-out" 2>&1 ||
    { cat "$work/strace-out" >&2; die "the traced split failed"; }
fi

# --- report ---------------------------------------------------------------------------------
echo "Best of $runs runs, tools alternating, both collections re-imported before each run;"
echo "seconds = wall time of the whole process (the split includes its checks before writing,"
echo "index and journal; the naive loop has none); docs/s = documents split per second;"
echo "apply s = the tool's own timing of its work (best run); CPU s = the client's user+sys"
echo "time in the best run; peak RSS = highest of the runs (GNU time %M)."
echo
printf '%-16s %7s %7s %9s %9s %9s %8s %9s %7s %9s\n' tool docs split pages elements seconds docs/s "apply s" "CPU s" "RSS MB"
printf '%-16s %7s %7s %9s %9s %9s %8s %9s %7s %9s\n' ---------------- ------- ------- --------- --------- --------- -------- --------- ------- ---------
row() { # row TOOL KEY APPLY_SECONDS
  awk -v tool="$1" -v docs="$docs" -v d="$split_docs" -v p="$split_pages" -v e="$split_elems" \
    -v s="$(seconds_of "$2")" -v a="$3" -v cpu="${best_cpu[$2]}" -v kb="${max_rss[$2]}" 'BEGIN {
    t = (s > 0 ? s : 0.0005)
    printf "%-16s %7d %7d %9d %9d %9.2f %8.1f %9.2f %7.2f %9.1f\n", tool, docs, d, p, e, s, d / t, a, cpu, kb * 1024 / 1e6
  }'
}
row "split --yes" split "${apply_s[split]}"
row "naive loop" naive "$(field_of seconds "${best_out[naive]}")"
echo
naive_cmds=$(field_of commands "${best_out[naive]}")
naive_cmd_s=$(field_of command_seconds "${best_out[naive]}")
awk -v c="$naive_cmds" -v s="$naive_cmd_s" -v d="$split_docs" 'BEGIN {
  printf "naive loop: %d commands (%.1f per document split), %.2f s waiting for their replies (%.1f ms each)\n", c, c / d, s, (c > 0 ? 1000 * s / c : 0)
}'
echo

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", (b > 0 ? a / b : 0) }'; }
verdict() { # verdict LABEL VALUE OP LIMIT
  awk -v label="$1" -v v="$2" -v op="$3" -v lim="$4" 'BEGIN {
    ok = (op == "<=") ? (v <= lim) : (v >= lim)
    printf "  %-44s %8.2f   target %s %-4s  %s\n", label, v, op, lim, ok ? "meets" : "misses"
  }'
}
echo "Target ($label documents, $split_docs split; docs/s ratio = naive seconds / split seconds)"
verdict "split docs/s / naive docs/s" "$(ratio "${best_ns[naive]}" "${best_ns[split]}")" ">=" 10
awk -v a="${apply_s[split]}" -v n="$(field_of seconds "${best_out[naive]}")" 'BEGIN {
  printf "  %-44s %8.2f   (diagnostic)\n", "the same, from the tools'"'"' own timings", (a > 0 ? n / a : 0)
}'

if ((do_strace)); then
  echo
  echo "Where the traced split's time goes (strace; a command's time runs from sending it to"
  echo "sending the next, so it includes the client's work in between, which is small):"
  python3 - "$work/strace" <<'EOF'
import re, sys
from collections import defaultdict

def unescape(s):
    out, i = bytearray(), 0
    simple = {'n': 10, 't': 9, 'r': 13, 'v': 11, 'f': 12, '"': 34, '\\': 92, 'a': 7, 'b': 8}
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s):
            n = s[i + 1]
            if n in simple:
                out.append(simple[n]); i += 2; continue
            m = re.match(r'[0-7]{1,3}', s[i + 1:])
            if m:
                out.append(int(m.group(0), 8) & 255); i += 1 + len(m.group(0)); continue
            if n == 'x':
                out.append(int(s[i + 2:i + 4], 16)); i += 4; continue
        out.append(ord(c) & 255); i += 1
    return bytes(out)

def command_name(message):
    if len(message) < 21:
        return '?'
    opcode = int.from_bytes(message[12:16], 'little')
    if opcode == 2004:
        return 'hello (OP_QUERY)'
    if opcode != 2013:
        return 'opcode %d' % opcode
    body = message[20:]
    if body[:1] != b'\0':
        return '?'
    kind = body[5:6]
    key, _, rest = body[6:].partition(b'\0')
    name = key.decode('latin-1') or '?'
    if kind == b'\x02' and len(rest) >= 4:  # {insert: "coll", ...}: name the collection
        n = int.from_bytes(rest[:4], 'little')
        name += ' ' + rest[4:4 + n - 1].decode('utf-8', 'replace')
    return name

events, end = [], None
for line in open(sys.argv[1], errors='replace'):
    m = re.match(r'\d+ (\d\d):(\d\d):(\d\d\.\d+) (\w+)\(', line)
    if not m:
        continue
    t = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
    end = t
    if m.group(4) in ('sendmsg', 'sendto'):
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"', line)
        message = b''.join(unescape(p) for p in parts)
        events.append((t, command_name(message)))
if not events:
    print('  (no commands seen)')
    sys.exit(0)
total = end - events[0][0]
stats = defaultdict(lambda: [0, 0.0, 0.0])
for i, (t, name) in enumerate(events):
    d = (events[i + 1][0] if i + 1 < len(events) else end) - t
    s = stats[name]
    s[0] += 1; s[1] += d; s[2] = max(s[2], d)
print('  %-50s %6s %9s %7s %8s' % ('command', 'count', 'seconds', 'share', 'max s'))
for name, (count, seconds, longest) in sorted(stats.items(), key=lambda kv: -kv[1][1]):
    print('  %-50s %6d %9.3f %6.1f%% %8.3f' % (name, count, seconds, 100 * seconds / total, longest))
print('  %-50s %6d %9.3f' % ('all', len(events), total))
EOF
  grep -E '^split ' "$work/strace-out" | sed 's/^/  traced run: /'
fi
echo
echo "load average at end: $(load)"
awk -v ns="$(($(date +%s%N) - script_start))" 'BEGIN { printf "total wall time: %.0f s\n", ns / 1e9 }'
exit 0
