#!/usr/bin/env bash
# Benchmarks hpgraph against hp2ps on the same files in the same run.
#
# Generates a wide profile (5,000 samples x 400 bands of 3,000 names) and a long one
# (100,000 samples x 25 bands) with examples/gen-profile, then for each file times
# `wc -l` (the floor: reading the file once), hp2ps (when installed) and hpgraph, each
# run in a scratch folder of its own writing FILE.ps and FILE.aux as in normal use, and
# prints the median wall time, the ratio to hp2ps and the peak RSS. It also checks that
# both programs wrote the same PostScript (%%Creator aside) and .aux.
#
# Then the eventlog: the long profile written as one run's .hp and eventlog (40 scheduler
# and collector events a sample besides the census), each rendered by hpgraph, with the
# ratio of their times and the ratio to reading the file once with cat (target: the
# eventlog at most 1.5x the larger of the .hp's time and cat's); and a 1 GB eventlog
# of the same shape (650 such events a sample), with its peak RSS (target: under 300 MB).
#
# Then the stack exports (pprof, folded, speedscope, a mean) of a census of 100,000
# stacks, beside drawing the same file as a graph; with the big files, --flame=mean over
# 100,000 censuses x 1,000 stacks beside drawing that file.
#
# usage: scripts/bench.sh [--runs N] [--hp2ps-runs N] [--keep DIR] [--no-big]
# Needs GNU time (/usr/bin/time, Debian package time) for peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 ref_runs=3 keep="" big=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --hp2ps-runs) ref_runs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --no-big) big=0; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 1; }

cargo build --release --quiet --bin hpgraph --example gen-profile
hpgraph=$PWD/target/release/hpgraph
gen=$PWD/target/release/examples/gen-profile
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

echo "generating profiles in $work"
"$gen" 5000 400 3000 1 > "$work/wide.hp"
"$gen" 100000 25 25 2 > "$work/long.hp"

# measure NAME RUNS CMD...: runs CMD in $work/NAME.run (a fresh folder each time, so
# every run writes new files); prints "median_seconds max_rss_kb".
measure() {
  local name=$1 n=$2; shift 2
  local times=() rss=0 dir=$work/$name.run
  for ((i = 0; i < n; i++)); do
    rm -rf "$dir"; mkdir -p "$dir"
    local t0 t1 r
    t0=$(date +%s%N)
    (cd "$dir" && /usr/bin/time -f %M -o "$work/rss" "$@" > /dev/null)
    t1=$(date +%s%N)
    times+=("$(( (t1 - t0) / 1000 ))")
    r=$(tail -n 1 "$work/rss")
    (( r > rss )) && rss=$r
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  awk -v us="$median" -v rss="$rss" 'BEGIN {printf "%.4f %d\n", us / 1e6, rss}'
}

printf '\n%-5s %8s %9s %9s %9s %8s %10s %10s %9s %s\n' \
  file MB "wc -l s" "hp2ps s" "hpgraph s" ratio "hp2ps RSS" "ours RSS" "x floor" same
for f in wide long; do
  hp=$work/$f.hp
  mb=$(awk -v b="$(stat -c %s "$hp")" 'BEGIN {printf "%.0f", b / 1048576}')
  read -r floor _ < <(measure "$f-wc" "$runs" wc -l "$hp")
  read -r ours ours_rss < <(measure "$f-ours" "$runs" "$hpgraph" "$hp")
  if command -v hp2ps > /dev/null; then
    read -r ref ref_rss < <(measure "$f-ref" "$ref_runs" hp2ps "$hp")
    ratio=$(awk -v a="$ref" -v b="$ours" 'BEGIN {printf "%.1fx", a / b}')
    if cmp -s <(grep -av '^%%Creator' "$work/$f-ref.run/$f.ps") <(grep -av '^%%Creator' "$work/$f-ours.run/$f.ps") \
       && cmp -s "$work/$f-ref.run/$f.aux" "$work/$f-ours.run/$f.aux"; then
      same=identical
    else
      same=DIFFERENT
    fi
  else
    ref=- ref_rss=- ratio=- same="(hp2ps not installed)"
  fi
  over=$(awk -v a="$ours" -v b="$floor" 'BEGIN {printf "%.1f", a / b}')
  printf '%-5s %8s %9s %9s %9s %8s %10s %10s %9s %s\n' \
    "$f" "$mb" "$floor" "$ref" "$ours" "$ratio" "$ref_rss" "$ours_rss" "$over" "$same"
done
echo
echo "seconds are medians of $runs runs (hp2ps: $ref_runs); RSS is the peak in KiB;"
echo "'x floor' is hpgraph's time over wc -l's. Targets: >= 20x on wide, >= 100x on long,"
echo "RSS no more than hp2ps's."

echo
echo "eventlog and .hp of one run (100,000 samples x 25 bands)"
"$gen" 100000 25 25 2 --eventlog "$work/run.eventlog" --filler 40 > "$work/run.hp"
printf '%-14s %8s %9s %10s\n' file MB "hpgraph s" RSS
for f in run.hp run.eventlog; do
  mb=$(awk -v b="$(stat -c %s "$work/$f")" 'BEGIN {printf "%.0f", b / 1048576}')
  read -r t rss < <(measure "${f/./-}" "$runs" "$hpgraph" "$work/$f")
  printf '%-14s %8s %9s %10s\n' "$f" "$mb" "$t" "$rss"
  eval "t_${f#run.}=$t"
done
read -r t_cat _ < <(measure run-cat "$runs" cat "$work/run.eventlog")
# shellcheck disable=SC2154
awk -v a="$t_eventlog" -v b="$t_hp" -v c="$t_cat" 'BEGIN {
  printf "eventlog / .hp: %.2fx; eventlog / cat: %.2fx (target: <= 1.5x the larger of the two times)\n",
    a / b, a / c }'
echo "(real eventlogs: scripts/bench-eventlog.sh FILE.eventlog..., or --make DIR to make two)"

echo
echo "stack exports: 3 censuses x 100,000 stacks (target: each under 1 s), beside drawing"
echo "the same file as a graph"
"$gen" 3 100000 100000 4 > "$work/stacks.hp"
printf '%-26s %9s %10s %9s\n' output "hpgraph s" RSS "x graph"
read -r t_graph rss < <(measure stacks-graph "$runs" "$hpgraph" "$work/stacks.hp" -o graph.svg)
printf '%-26s %9s %10s %9s\n' "graph (.svg)" "$t_graph" "$rss" 1.0
for out in heap.pb.gz heap.folded heap.speedscope.json "--flame=mean heap.pb.gz"; do
  # shellcheck disable=SC2086
  set -- $out
  name=${*: -1}
  read -r t rss < <(measure "stacks-${name//./-}" "$runs" "$hpgraph" "$work/stacks.hp" "${@:1:$#-1}" -o "$name")
  x=$(awk -v a="$t" -v b="$t_graph" 'BEGIN {printf "%.2f", a / b}')
  printf '%-26s %9s %10s %9s\n' "$out" "$t" "$rss" "$x"
done

# --stats against ghc-events, when GHC and its eventlog library are here.
if command -v ghc >/dev/null && ghc-pkg list ghc-events 2>/dev/null | grep -q ghc-events; then
  echo
  scripts/bench-stats.sh --runs 3
else
  echo "(--stats against ghc-events: scripts/bench-stats.sh, with ghc and libghc-ghc-events-dev)"
fi

if [ "$big" = 1 ]; then
  echo
  echo "a 1 GB eventlog (100,000 samples x 25 bands, 650 other events a sample)"
  "$gen" 100000 25 25 3 --eventlog "$work/big.eventlog" --filler 650 > /dev/null
  mb=$(awk -v b="$(stat -c %s "$work/big.eventlog")" 'BEGIN {printf "%.0f", b / 1048576}')
  read -r t rss < <(measure big 1 "$hpgraph" "$work/big.eventlog")
  read -r ty rssy < <(measure big-y 1 "$hpgraph" -y "$work/big.eventlog")
  echo "big.eventlog: $mb MB, ${t} s, peak RSS $((rss / 1024)) MB (target < 300 MB);" \
    "with -y: ${ty} s, $((rssy / 1024)) MB"
  rm -f "$work/big.eventlog"

  echo
  echo "--flame=mean over 100,000 censuses x 1,000 stacks (a 3.9 GB .hp), beside drawing it"
  "$gen" 100000 1000 1000 5 > "$work/mean.hp"
  read -r tg rssg < <(measure mean-graph 1 "$hpgraph" "$work/mean.hp" -o graph.svg)
  read -r tm rssm < <(measure mean-flame 1 "$hpgraph" "$work/mean.hp" --flame=mean -o mean.svg)
  awk -v g="$tg" -v m="$tm" -v rg="$rssg" -v rm="$rssm" 'BEGIN {
    printf "graph %.2f s (%d MB); --flame=mean %.2f s (%d MB): %.2fx the graph\n", g, rg / 1024, m, rm / 1024, m / g }'
  rm -f "$work/mean.hp"
fi
