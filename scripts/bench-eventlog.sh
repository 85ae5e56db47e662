#!/usr/bin/env bash
# Real eventlogs against the bound of docs/performance.md: rendering an eventlog takes at
# most 1.5x the time of rendering the .hp of the same run, or 1.5x the time of reading
# the file once (`cat FILE > /dev/null`, page cache warm), whichever is larger. Prints,
# for each FILE.eventlog with its FILE.hp beside it, the best of N runs of each and both
# ratios. Not a test: timings vary from machine to machine.
#
#   scripts/bench-eventlog.sh [--runs N] FILE.eventlog...
#   scripts/bench-eventlog.sh --make DIR    # two runs of GHC programs (needs ghc, ghc-prof):
#       DIR/sched.{eventlog,hp}: scheduler-heavy, a threaded -N2 run (about 120 MB)
#       DIR/census.{eventlog,hp}: census-heavy, a census at every major collection
set -euo pipefail
cd "$(dirname "$0")/.."
runs=9
if [ "${1:-}" = --make ]; then
  dir=${2:?a folder}
  mkdir -p "$dir"
  build=$(mktemp -d)
  trap 'rm -rf "$build"' EXIT
  ghc -O -threaded -rtsopts -eventlog -outputdir "$build" scripts/bench/Sched.hs -o "$dir/sched" >/dev/null
  ghc -O -prof -fprof-auto -rtsopts -eventlog -outputdir "$build/p" scripts/bench/Census.hs -o "$dir/census" >/dev/null
  (cd "$dir" && ./sched +RTS -N2 -hT -l -A64k -i0.1 -RTS && ./census +RTS -hc -l -i0 -A256k -RTS >/dev/null)
  ls -l "$dir"/*.eventlog "$dir"/*.hp
  exit 0
fi
if [ "${1:-}" = --runs ]; then runs=$2; shift 2; fi
cargo build --release --quiet --bin hpgraph
hpgraph=$PWD/target/release/hpgraph
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# best CMD...: the fastest of $runs runs, in milliseconds.
best() {
  local b=""
  for ((i = 0; i < runs; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" > /dev/null 2>&1
    t1=$(date +%s%N)
    local t=$(( (t1 - t0) / 10000 ))
    if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
  done
  awk -v t="$b" 'BEGIN {printf "%.2f", t / 100}'
}

printf '%-24s %6s %8s %8s %8s %8s %8s %s\n' file MB "cat ms" ".hp ms" "ev ms" "ev/.hp" "ev/cat" bound
for log in "$@"; do
  hp=${log%.eventlog}.hp
  mb=$(awk -v b="$(stat -c %s "$log")" 'BEGIN {printf "%.0f", b / 1048576}')
  cat "$log" > /dev/null # warm the page cache
  c=$(best cat "$log")
  e=$(best "$hpgraph" "$log" -o "$out/ev.ps")
  if [ -f "$hp" ]; then h=$(best "$hpgraph" "$hp" -o "$out/hp.ps"); else h=0; fi
  awk -v f="$(basename "$log")" -v mb="$mb" -v c="$c" -v h="$h" -v e="$e" 'BEGIN {
    floor = (h > c ? h : c); ok = (e <= 1.5 * floor) ? "ok" : "OVER";
    printf "%-24s %6s %8.2f %8.2f %8.2f %7.2fx %7.2fx %s (<= 1.5x the larger)\n",
      f, mb, c, h, e, (h > 0 ? e / h : 0), e / c, ok }'
done
