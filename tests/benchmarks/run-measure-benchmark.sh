#!/usr/bin/env bash
# Server-side measurement benchmark (issues 36, 54): `analyze --full --measure server` and the
# complete default (auto) against the client-side full scan and against the floor, on loopback
# and through a slow link; it prints both issues' targets.
#
# Starts mongod (tests/live/mongod-fixture.sh), loads activity feeds (demo-data, default
# activity_feeds: 1,500 documents, ~130 MB) with `import`, starts Shopify's toxiproxy
# (packaging/install-toxiproxy.sh) in front of it, and for each link
#   loopback   the client talks to mongod directly
#   proxy      through toxiproxy: a `bandwidth` toxic of --rate KB/s (toxiproxy's KB = 1000
#              bytes; 12500 = 100 Mbit/s) and a `latency` toxic of --latency ms, both on the
#              downstream (server -> client) side only, so each round trip pays the latency once
# runs, --runs times each, alternating:
#   floor      bench_measure_floor: ONE aggregation [{$project: {s: {$bsonSize: "$$ROOT"},
#              n0: <length of --path 0>, ...}}] drained; it sends only sizes and lengths, three
#              ways: top-level paths only; every path, a nested one's lengths summed per
#              document; every path, a nested one's lengths one per element that holds the
#              array (--each: what the analysis's length distribution of activities.tags needs,
#              and the floor the 1.5x target is held against)
#   server     analyze --full --measure server
#   server ×N  analyze --full --measure server --parallel N (--server-parallel; 0 leaves it out):
#              N cursors over _id ranges, so the server's work on one overlaps the link's
#              transfer of another (one cursor waits for each reply before asking the next)
#   cluster    analyze --full --measure cluster (the same figures counted on the server: tallies,
#              the tails' candidates and the documents read whole cross the link)
#   client     analyze --full --measure client (today's client-side full scan)
#   auto       analyze --full (the CLI's choice; the row is labelled by the mode that ran,
#              from the CLI's "partial analysis: measured on the server…" / "measured client-side…"
#              / "counted in the cluster…" note)
# and prints one table: the median run's wall time (by wall time, of --runs), documents/s,
# bytes moved (mongod's serverStatus().network.physicalBytesOut over the run: the wire's bytes,
# after the compression auto and client ask for across a network; less the cost of reading it), mongod's CPU seconds over the run (/proc/PID/stat utime+stime / CLK_TCK),
# the client's CPU seconds and its peak RSS (GNU time). Then:
#   pace    analyze --full --measure server --max-docs-per-sec R on loopback: the achieved
#           documents/s (documents / the scan's seconds in summary.csv) against R
#   memory  peak RSS of --measure server and client on loopback for --docs N and 2N documents
#   csv     the server run's CSVs against the client run's (identical but for summary.csv's
#           seconds row, fields.csv's rows of fields without arrays and the columns of arrays
#           inside arrays other than their count and lengths, those arrays' size targets in
#           recommendations.csv, and the shape: fields.csv's four shape columns, summary.csv's
#           four shape rows, shape_outliers.csv's rows: what the server-side measurement does
#           not measure)
# and the targets of issue 36. A report, not a test: it exits 0 whether targets are met or
# not (non-zero only when something could not be run). Nothing here is in CTest.
#
# Usage: tests/benchmarks/run-measure-benchmark.sh [options]
#   --docs N          documents (default 1500: ~130 MB of activity_feeds; check `list`)
#   --dataset NAME    demo-data dataset (default activity_feeds; feed_bench needs ~100000), or
#                     flat_shapes (tests/FlatShapes.cpp: small documents whose whole shape the
#                     tallies count; --paths codes)
#   --paths LIST      the floor's array paths, comma-separated (default activities,activities.tags)
#   --runs N          runs per row, alternating; the median by wall time is shown (default 3)
#   --rate KBS        the proxy's bandwidth, KB/s (default 12500 = 100 Mbit/s)
#   --latency MS      the proxy's added latency per round trip, ms (default 10)
#   --pace R          documents/s for the pacing check (default: --docs / 10, about 10 s)
#   --server-parallel N  the server ×N row's cursors (default 4; 0: no such row)
#   --only LIST       any of loopback,proxy,pace,memory,csv (default all)
#   --build-dir DIR   CMake build dir (env OE_BUILD_DIR; default <repo>/build)
#   --data-dir DIR    dataset cache (env OE_BENCH_DATA; default <build dir>/bench-data)
#   --seed S          demo-data seed (default 1)
#   --no-build        use the binaries as they are
#
# Needs: GNU time at /usr/bin/time, curl (toxiproxy's API), python3 (free ports), Go once for
# toxiproxy (packaging/install-toxiproxy.sh), mongod 6.0.5 (packaging/install-mongod.sh).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)
# shellcheck source=tests/benchmarks/lib.sh
source "$script_dir/lib.sh"
die() { echo "run-measure-benchmark: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

build_dir=${OE_BUILD_DIR:-$repo_root/build}
data_dir=${OE_BENCH_DATA:-}
docs=1500
dataset=activity_feeds
paths=activities,activities.tags
runs=3
rate=12500
latency=10
pace=
server_parallel=4
only=loopback,proxy,pace,memory,csv
seed=1
do_build=1
while (($#)); do
  case $1 in
    --docs) docs=${2:?--docs needs a value}; shift 2 ;;
    --dataset) dataset=${2:?--dataset needs a value}; shift 2 ;;
    --paths) paths=${2:?--paths needs a value}; shift 2 ;;
    --runs) runs=${2:?--runs needs a value}; shift 2 ;;
    --rate) rate=${2:?--rate needs a value}; shift 2 ;;
    --latency) latency=${2:?--latency needs a value}; shift 2 ;;
    --pace) pace=${2:?--pace needs a value}; shift 2 ;;
    --server-parallel) server_parallel=${2:?--server-parallel needs a value}; shift 2 ;;
    --only) only=${2:?--only needs a value}; shift 2 ;;
    --build-dir) build_dir=${2:?--build-dir needs a value}; shift 2 ;;
    --data-dir) data_dir=${2:?--data-dir needs a value}; shift 2 ;;
    --seed) seed=${2:?--seed needs a value}; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
for n in "$docs" "$runs" "$rate"; do [[ $n =~ ^[1-9][0-9]*$ ]] || die "not a positive number: $n"; done
[[ $latency =~ ^[0-9]+$ ]] || die "bad --latency: $latency"
[[ $server_parallel =~ ^[0-9]+$ ]] || die "bad --server-parallel: $server_parallel"
pace=${pace:-$(((docs + 9) / 10))}
[[ $pace =~ ^[1-9][0-9]*$ ]] || die "bad --pace: $pace"
wants() { [[ ,$only, == *,$1,* ]]; }
build_dir=$(realpath -m "$build_dir")
data_dir=$(realpath -m "${data_dir:-$build_dir/bench-data}")
[[ -x /usr/bin/time ]] || die "GNU time is missing at /usr/bin/time (apt-get install time)"
command -v curl >/dev/null || die "needs curl (toxiproxy's API)"

cli=$build_dir/bin/outlier-explorer-cli
floor=$build_dir/bin/bench_measure_floor
((do_build)) && bench_build "$build_dir" "$repo_root" outlier-explorer-cli bench_measure_floor \
  bench_flat_shapes
[[ -x $cli && -x $floor ]] || die "no $cli or $floor (build them, or drop --no-build)"

# --- server, data, proxy --------------------------------------------------------------------
BENCH_SERVER=mongod
bench_setup measure-bench "$repo_root" "$build_dir" ""
work=$BENCH_WORK direct_uri=$BENCH_URI mongod_pid=$BENCH_SERVER_PID
db=oe_measure_bench

# load DOCS: imports the dataset of DOCS documents into $db.<dataset>_DOCS (once) and prints
# the collection's name.
load() {
  local n=$1 file coll=${dataset}_$1
  if [[ $dataset == flat_shapes ]]; then
    # (Not a demo dataset: tests/FlatShapes.cpp's documents, the shape counted in the cluster.)
    file=$data_dir/flat_shapes-$n/flat_shapes.bson
    if [[ ! -s $file ]]; then
      mkdir -p "$(dirname "$file")"
      "$build_dir/bin/bench_flat_shapes" "$n" "$file" || die "bench_flat_shapes failed"
    fi
  else
    file=$(bench_dataset "$cli" "$data_dir" "$dataset" "$n" "$seed" 0)
  fi
  echo "Importing $n documents into $db.$coll ..." >&2
  "$cli" import --uri "$direct_uri" --db "$db" --collection "$coll" --dump "$file" --drop >&2 ||
    die "import failed"
  echo "$coll"
}
coll=$(load "$docs")
coll_bytes=$("$cli" list --uri "$direct_uri" --db "$db" |
  awk -F, -v c="$coll" '$2 == c { print $5; exit }')
[[ -n $coll_bytes ]] || die "list does not show $db.$coll"
((coll_bytes >= 100000000)) ||
  echo "run-measure-benchmark: note: $db.$coll holds $coll_bytes bytes, under the 100 MB the issue asks for" >&2

toxiproxy=$(bash "$repo_root/packaging/install-toxiproxy.sh" | tail -n 1)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
api_port=$(free_port)
listen_port=$(free_port)
"$toxiproxy" -host 127.0.0.1 -port "$api_port" >"$work/toxiproxy.log" 2>&1 &
toxi_pid=$!
trap 'kill "$toxi_pid" 2>/dev/null || true; bench_cleanup' EXIT
api="http://127.0.0.1:$api_port"
for _ in $(seq 50); do curl -fs "$api/version" >/dev/null 2>&1 && break; sleep 0.1; done
hostport=$(awk -F= '$1 == "OE_TEST_HOSTPORT" { print $2; exit }' "$BENCH_STATE_DIR/env")
curl -fs -X POST "$api/proxies" \
  -d "{\"name\":\"mongo\",\"listen\":\"127.0.0.1:$listen_port\",\"upstream\":\"$hostport\"}" >/dev/null ||
  die "could not create the proxy"
curl -fs -X POST "$api/proxies/mongo/toxics" \
  -d "{\"name\":\"bw\",\"type\":\"bandwidth\",\"stream\":\"downstream\",\"attributes\":{\"rate\":$rate}}" \
  >/dev/null || die "could not add the bandwidth toxic"
if ((latency > 0)); then
  curl -fs -X POST "$api/proxies/mongo/toxics" \
    -d "{\"name\":\"rtt\",\"type\":\"latency\",\"stream\":\"downstream\",\"attributes\":{\"latency\":$latency,\"jitter\":0}}" \
    >/dev/null || die "could not add the latency toxic"
fi
proxy_uri="mongodb://127.0.0.1:$listen_port/?directConnection=true"

# --- measurement ----------------------------------------------------------------------------
# The bytes mongod sent on the wire (after wire compression, which auto asks for across a network).
bytes_out() {
  "$floor" "$direct_uri" --bytes-out |
    awk '$1 == "bytes_out:" { b = $2 } $1 == "physical_bytes_out:" { p = $2 } END { print (p != "" ? p : b) }'
}
mongod_ticks() { awk '{ print $14 + $15 }' "/proc/$mongod_pid/stat"; }
hz=$(getconf CLK_TCK)
# Every operation in mongod's log (slowms 0), for the server's own time per run (op_ms).
mongod_log=$BENCH_STATE_DIR/mongod.log
"$build_dir/bin/fixture_command" "$direct_uri" admin '{"profile": 0, "slowms": 0}' >/dev/null ||
  die "could not set slowms"
# op_ms FROM_LINE: "scan_ms other_ms": the durationMillis mongod logged from FROM_LINE on, for
# operations on $db's collections: the scan (a find and its getMores, or the floor's $project
# aggregation and its getMores) and the rest (the probe, the discovery sample, counts, stats).
op_ms() {
  # shellcheck disable=SC2016 # a Python program, not shell
  tail -n "+$1" "$mongod_log" | python3 -c '
import json, sys
db = sys.argv[1]
scan = other = 0
for line in sys.stdin:
    try:
        e = json.loads(line)
    except ValueError:
        continue
    a = e.get("attr", {})
    ns = a.get("ns", "")
    if e.get("msg") != "Slow query" or not ns.startswith(db + ".") or ns.endswith(".$cmd"):
        continue
    c = a.get("originatingCommand") or a.get("command", {})
    stage = (c.get("pipeline") or [{}])[0]
    if "find" in c or "s" in stage.get("$project", {}):
        scan += a.get("durationMillis", 0)
    else:
        other += a.get("durationMillis", 0)
print(scan, other)' "$db"
}
# What reading bytesOut costs (the serverStatus reply and the handshake), taken off each delta.
b0=$(bytes_out)
b1=$(bytes_out)
bytes_overhead=$((b1 - b0))

# run_once KEY CMD...: one run under GNU time; appends "ns rss_kb client_cpu mongod_cpu bytes
# mode scan_ms other_ms" to $work/KEY.runs (mode: server/client from the CLI's note, floor for
# the floor; scan_ms/other_ms: op_ms).
run_once() {
  local key=$1
  shift
  local t0 t1 c0 c1 bb ba rss user sys mode l0
  l0=$(($(wc -l <"$mongod_log") + 1))
  bb=$(bytes_out)
  c0=$(mongod_ticks)
  t0=$(date +%s%N)
  if ! /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$@" >"$work/out" 2>"$work/err"; then
    echo "run-measure-benchmark: failed: $*" >&2
    cat "$work/out" "$work/err" "$work/time" >&2 || true
    exit 1
  fi
  t1=$(date +%s%N)
  c1=$(mongod_ticks)
  ba=$(bytes_out)
  read -r _ rss user sys <"$work/time"
  if grep -qE '^(partial analysis: )?measured on the server' "$work/out" "$work/err" 2>/dev/null; then
    mode=server
  elif grep -q '^measured client-side' "$work/out" "$work/err" 2>/dev/null; then
    mode=client
  elif grep -q '^counted in the cluster' "$work/out" "$work/err" 2>/dev/null; then
    mode=cluster
  elif [[ $key == *floor* ]]; then
    mode=floor
  else
    mode=unknown # the CLI's note changed: see its output
  fi
  echo "$((t1 - t0)) $rss $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') \
$(awk -v t=$((c1 - c0)) -v hz="$hz" 'BEGIN { printf "%.2f", t / hz }') \
$((ba - bb - bytes_overhead)) $mode $(op_ms "$l0")" >>"$work/$key.runs"
}

# median KEY: the runs' median line by wall time.
median() { sort -n "$work/$1.runs" | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'; }

# analyze_cmd URI COLLECTION OUT [extra...]: sets cmd to that `analyze --full` (OUT emptied).
analyze_cmd() {
  local uri=$1 c=$2 out=$3
  shift 3
  rm -rf "$out"
  cmd=("$cli" analyze --uri "$uri" --db "$db" --collection "$c" --full --out "$out" "$@")
}

IFS=, read -r -a path_list <<<"$paths"
floor_all=() floor_top=()
for p in "${path_list[@]}"; do
  floor_all+=(--path "$p")
  [[ $p == *.* ]] || floor_top+=(--path "$p")
done

cmd=()
rows=()
declare -A secs
declare -A moved
measure_link() { # LINK LABEL URI
  local link=$1 label=$2 uri=$3 r key line ns rss ccpu scpu bytes mode name scan_ms other_ms
  echo "Measuring on $link ($runs runs each, alternating) ..." >&2
  rm -f "$work/$link".*.runs
  for ((r = 1; r <= runs; r++)); do
    run_once "$link.floor_top" "$floor" "$uri" "$db" "$coll" "${floor_top[@]}"
    run_once "$link.floor" "$floor" "$uri" "$db" "$coll" "${floor_all[@]}"
    run_once "$link.floor_each" "$floor" "$uri" "$db" "$coll" "${floor_all[@]}" --each
    analyze_cmd "$uri" "$coll" "$work/out-$link-server" --measure server
    run_once "$link.server" "${cmd[@]}"
    if ((server_parallel > 0)); then
      analyze_cmd "$uri" "$coll" "$work/out-$link-server-par" --measure server --parallel "$server_parallel"
      run_once "$link.server_par" "${cmd[@]}"
    fi
    analyze_cmd "$uri" "$coll" "$work/out-$link-cluster" --measure cluster
    run_once "$link.cluster" "${cmd[@]}"
    analyze_cmd "$uri" "$coll" "$work/out-$link-client" --measure client
    run_once "$link.client" "${cmd[@]}"
    analyze_cmd "$uri" "$coll" "$work/out-$link-auto"
    run_once "$link.auto" "${cmd[@]}"
  done
  local keys=(floor_top floor floor_each server cluster client auto)
  ((server_parallel > 0)) && keys=(floor_top floor floor_each server server_par cluster client auto)
  for key in "${keys[@]}"; do
    line=$(median "$link.$key")
    read -r ns rss ccpu scpu bytes mode scan_ms other_ms <<<"$line"
    case $key in
      floor_top) name="floor: \$bsonSize + top-level \$size" ;;
      floor) name="floor: \$bsonSize + every path's length (nested: summed)" ;;
      floor_each) name="floor: \$bsonSize + every array's length (nested: one per element)" ;;
      auto) name="analyze --full (auto: ran $mode)" ;;
      server_par) name="analyze --full --measure server --parallel $server_parallel" ;;
      *) name="analyze --full --measure $key" ;;
    esac
    secs[$link.$key]=$(awk -v ns="$ns" 'BEGIN { printf "%.3f", ns / 1e9 }')
    moved[$link.$key]=$bytes
    rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s / %s | %s | %s |' "$label" "$name" "${secs[$link.$key]}" \
      "$(awk -v n="$docs" -v ns="$ns" 'BEGIN { printf "%.0f", n / (ns / 1e9) }')" \
      "$(awk -v b="$bytes" 'BEGIN { printf (b < 1e7 ? "%.3f" : "%.1f"), b / 1e6 }')" "$scpu" "$scan_ms" "$other_ms" "$ccpu" \
      "$(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')")")
  done
}

link_proxy="$(awk -v r="$rate" 'BEGIN { printf "%g", r * 8 / 1000 }') Mbit/s + $latency ms"
if wants loopback; then measure_link loopback loopback "$direct_uri"; fi
if wants proxy; then measure_link proxy "$link_proxy" "$proxy_uri"; fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# --- pacing ---------------------------------------------------------------------------------
pace_line=
if wants pace; then
  echo "Pacing: --measure server --max-docs-per-sec $pace on loopback ..." >&2
  rm -f "$work/pace.runs"
  analyze_cmd "$direct_uri" "$coll" "$work/out-pace" --measure server --max-docs-per-sec "$pace"
  run_once pace "${cmd[@]}"
  read -r ns _ _ scpu _ mode _ _ <"$work/pace.runs"
  scan_s=$(awk -F, '$1 == "seconds" { print $2 }' "$work/out-pace/summary.csv")
  pace_line="--max-docs-per-sec $pace ($mode-side): $docs documents in $scan_s s of scan \
($(awk -v n="$docs" -v s="$scan_s" 'BEGIN { printf "%.1f", n / s }') docs/s, \
$(ratio "$(awk -v n="$docs" -v s="$scan_s" 'BEGIN { print n / s }')" "$pace")x R), \
$(awk -v ns="$ns" 'BEGIN { printf "%.2f", ns / 1e9 }') s wall, mongod CPU $scpu s"
fi

# --- memory ---------------------------------------------------------------------------------
mem_lines=()
if wants memory; then
  docs2=$((2 * docs))
  coll2=$(load "$docs2")
  rm -f "$work"/mem.*.runs
  for m in server client; do
    for n in "$docs" "$docs2"; do
      c=${dataset}_$n
      analyze_cmd "$direct_uri" "$c" "$work/out-mem" --measure "$m"
      run_once "mem.$m.$n" "${cmd[@]}"
    done
    read -r _ rss1 _ _ _ _ _ _ <"$work/mem.$m.$docs.runs"
    read -r _ rss2 _ _ _ _ _ _ <"$work/mem.$m.$docs2.runs"
    mem_lines+=("--measure $m, loopback: peak RSS $((rss1 / 1024)) MB at $docs documents, \
$((rss2 / 1024)) MB at $docs2 ($coll2): $(ratio "$rss2" "$rss1")x")
  done
fi

# --- CSVs: server against client ------------------------------------------------------------
csv_lines=()
if wants csv; then
  for link in loopback proxy; do
    s=$work/out-$link-server c=$work/out-$link-client same=1
    [[ -d $s && -d $c ]] || continue
    for f in "$c"/*.csv; do
      b=$(basename "$f")
      if [[ ! -f $s/$b ]]; then
        csv_lines+=("$link: $b missing in the server run")
        same=0
        continue
      fi
      # What the server does not measure, left out of the client's files: fields.csv rows of
      # fields without arrays; of a lengths-only row (the server's present column blank) the
      # types, presence, bytes, values and element bytes; its recommendation's size target;
      # the shape (issue 37): fields.csv's last four columns, summary.csv's four shape rows,
      # shape_outliers.csv's rows (the server run says "shape not measured" instead).
      lengths_only() { awk -F, 'FNR > 1 && $3 == "" { print $1 }' "$s/fields.csv"; }
      case $b in
        summary.csv) filter() {
          grep -Ev '^(seconds|shape_flags|shape_note|field_count_threshold|depth_threshold),' "$1"
        } ;;
        shape_outliers.csv) filter() { head -n 1 "$1"; } ;;
        fields.csv) filter() {
          awk -F, -v OFS=, 'NR == FNR { only[$1] = 1; next } { sub(/\r$/, "") }
            FNR == 1 { print; next } $4 == 0 { next }
            { $19 = $20 = $21 = $22 = "" }
            ($1 in only) { $2 = "array"; $3 = $11 = $12 = $13 = $16 = "" } { print }' \
            <(lengths_only) "$1"
        } ;;
        recommendations.csv) filter() {
          awk -F, -v OFS=, 'NR == FNR { only[$1] = 1; next } { sub(/\r$/, "") }
            FNR > 1 && ($1 in only) { $5 = $6 = "" } { print }' <(lengths_only) "$1"
        } ;;
        *) filter() { cat "$1"; } ;;
      esac
      if ! diff <(filter "$c/$b") <(filter "$s/$b") >"$work/diff"; then
        same=0
        csv_lines+=("$link: $b differs ($(grep -c '^[<>]' "$work/diff") lines): $(head -c 300 "$work/diff" | tr '\n' ' ')")
      fi
    done
    dropped=$(awk -F, '{ sub(/\r$/, "") } FNR > 1 && $4 == 0 { n++ } END { print n + 0 }' "$c/fields.csv")
    ((!same)) ||
      csv_lines+=("$link: every figure of sizes and arrays identical (but summary.csv's seconds; fields.csv: $dropped rows of fields without arrays, and lengths only for $(lengths_only | wc -l) arrays inside arrays, only the client measures)")
  done
fi

# --- report ---------------------------------------------------------------------------------
echo
echo "Outlier Explorer server-side measurement benchmark — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(git -C "$repo_root" rev-parse --short HEAD)"
echo "$BENCH_SERVER_DESC"
echo "$db.$coll: $docs $dataset documents, $coll_bytes bytes ($(awk -v b="$coll_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB); floor paths: $paths"
echo "loopback = direct; proxy = toxiproxy, bandwidth $rate KB/s ($(awk -v r="$rate" 'BEGIN { printf "%g", r * 8 / 1000 }') Mbit/s) and latency $latency ms, both downstream"
echo "Median of $runs runs by wall time (whole process). MB moved = mongod physicalBytesOut over the run (on the wire, compressed where it was); CPU in seconds;"
echo "mongod ms = durationMillis mongod logged for the run's operations on $db: the scan (find/aggregate and"
echo "getMores) / the rest (probe, discovery sample, counts)."
echo
echo "| link | tool | seconds | docs/s | MB moved | mongod CPU s | mongod ms: scan / other | client CPU s | peak RSS MB |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
echo
echo "Targets (issue 36):"
if wants proxy; then
  r1=$(ratio "${secs[proxy.server]}" "${secs[proxy.floor_each]}")
  r2=$(ratio "${secs[proxy.client]}" "${secs[proxy.server]}")
  rs=$(ratio "${secs[proxy.server]}" "${secs[proxy.floor]}")
  r0=$(ratio "${secs[proxy.server]}" "${secs[proxy.floor_top]}")
  echo "  $link_proxy: --measure server / floor (every array's length as the analysis reports them) = ${r1}x (target <= 1.5x): $(awk -v r="$r1" 'BEGIN { print (r <= 1.5 ? "met" : "MISSED") }')"
  echo "  $link_proxy: --measure server / floor (nested lengths summed per document) = ${rs}x (<= 1.5x: $(awk -v r="$rs" 'BEGIN { print (r <= 1.5 ? "yes" : "no") }'))"
  echo "  $link_proxy: --measure server / floor (top-level lengths only) = ${r0}x (<= 1.5x: $(awk -v r="$r0" 'BEGIN { print (r <= 1.5 ? "yes" : "no") }'))"
  echo "  $link_proxy: client / --measure server = ${r2}x (target >= 10x): $(awk -v r="$r2" 'BEGIN { print (r >= 10 ? "met" : "MISSED") }')"
  if ((server_parallel > 0)); then
    p1=$(ratio "${secs[proxy.server_par]}" "${secs[proxy.floor_each]}")
    p2=$(ratio "${secs[proxy.client]}" "${secs[proxy.server_par]}")
    echo "  $link_proxy: --measure server --parallel $server_parallel / floor (every array's length) = ${p1}x (target <= 1.5x): $(awk -v r="$p1" 'BEGIN { print (r <= 1.5 ? "met" : "MISSED") }')"
    echo "  $link_proxy: client / --measure server --parallel $server_parallel = ${p2}x (target >= 10x): $(awk -v r="$p2" 'BEGIN { print (r >= 10 ? "met" : "MISSED") }')"
  fi
fi
if wants loopback; then
  r3=$(ratio "${secs[loopback.server]}" "${secs[loopback.client]}")
  echo "  loopback: --measure server / client = ${r3}x (target <= 1x): $(awk -v r="$r3" 'BEGIN { print (r <= 1 ? "met" : "MISSED") }')"
  echo "  loopback: --measure server / floor (every array's length) = $(ratio "${secs[loopback.server]}" "${secs[loopback.floor_each]}")x"
fi
[[ -z $pace_line ]] || echo "  pacing: $pace_line"
for l in "${mem_lines[@]}"; do echo "  memory: $l"; done
for l in "${csv_lines[@]}"; do echo "  csv: $l"; done
if wants proxy; then
  # Issue 54: the default (auto), complete, within one $bsonSize-per-document aggregation's time,
  # sending under 1 % of the collection's bytes.
  a1=$(ratio "${secs[proxy.auto]}" "${secs[proxy.floor_each]}")
  share=$(awk -v b="${moved[proxy.auto]}" -v c="$coll_bytes" 'BEGIN { printf "%.2f", 100 * b / c }')
  echo "Targets (issue 54):"
  echo "  $link_proxy: auto / floor (every array's length) = ${a1}x (target <= 1x): $(awk -v r="$a1" 'BEGIN { print (r <= 1 ? "met" : "MISSED") }')"
  echo "  $link_proxy: auto sent ${share} % of the collection's bytes (target < 1 %): $(awk -v r="$share" 'BEGIN { print (r < 1 ? "met" : "MISSED") }')"
  c1=$(ratio "${secs[proxy.cluster]}" "${secs[proxy.floor_each]}")
  cshare=$(awk -v b="${moved[proxy.cluster]}" -v c="$coll_bytes" 'BEGIN { printf "%.2f", 100 * b / c }')
  echo "  $link_proxy: --measure cluster (counted in the cluster; the shape too where ShapePlanner can plan it) / floor = ${c1}x; it sent ${cshare} % of the collection's bytes"
fi
