#!/usr/bin/env bash
# `hpgraph --stats` against ghc-events (GHC's eventlog library) reading the same file
# for the same sums (scripts/bench/StatsOracle.hs), on a scheduler-heavy eventlog of
# about 120 MB: the best of N runs of each, the ratio (the target: at least 20x), and
# hpgraph's peak memory (the target: under 100 MB whatever the file's size). Not a test:
# timings vary from machine to machine.
#
#   scripts/bench-stats.sh [--runs N] [FILE.eventlog]
#   (without FILE: makes DIR/sched.eventlog with scripts/bench-eventlog.sh --make;
#    needs ghc and libghc-ghc-events-dev)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
if [ "${1:-}" = --runs ]; then runs=$2; shift 2; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=${1:-}
if [ -z "$log" ]; then
  scripts/bench-eventlog.sh --make "$work/made" >/dev/null
  log=$work/made/sched.eventlog
fi
cargo build --release --quiet --bin hpgraph
ghc -O -package ghc-events -outputdir "$work/o" scripts/bench/StatsOracle.hs -o "$work/oracle" >/dev/null
python3 - "$runs" "$log" "$PWD/target/release/hpgraph" "$work/oracle" <<'PY'
import os, subprocess, sys, time
runs, log, hpgraph, oracle = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
def best(cmd):
    b = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        b = min(b, time.perf_counter() - t)
    return b
ours, theirs = best([hpgraph, "--stats", log]), best([oracle, log])
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY); os.dup2(fd, 1)
    os.execv(hpgraph, [hpgraph, "--stats", log])
_, _, usage = os.wait4(pid, 0)
mb = os.path.getsize(log) / 1048576
print(f"{os.path.basename(log)}: {mb:.0f} MB")
print(f"hpgraph --stats {ours * 1e3:8.1f} ms   ghc-events {theirs * 1e3:8.1f} ms   {theirs / ours:5.1f}x (target: 20x)")
print(f"hpgraph --stats peak memory {usage.ru_maxrss / 1024:.0f} MB (target: under 100 MB)")
PY
