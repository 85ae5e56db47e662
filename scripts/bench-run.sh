#!/usr/bin/env bash
# `hpgraph run`'s overhead: the wall time of `hpgraph run -o page.html -- PROG N` against
# the same program run by hand with the same runtime options (the ones `hpgraph run`
# prints), best of N runs each, for a plain and a profiling build of
# fixtures/programs/Run.hs. The bound (issue: "no more than the RTS flags themselves
# cost"): hpgraph run <= 1.25 x by hand + 0.5 s, drawing the page included. Not a test:
# timings vary from machine to machine.
#
#   scripts/bench-run.sh [--runs N] [SIZE]     (SIZE: the program's map, default 1500000)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
if [ "${1:-}" = --runs ]; then runs=$2; shift 2; fi
size=${1:-1500000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --bin hpgraph
hpgraph=$PWD/target/release/hpgraph
ghc -O -v0 -rtsopts -eventlog -outputdir "$work/o1" fixtures/programs/Run.hs -o "$work/plain"
ghc -O -v0 -prof -fprof-auto -rtsopts -outputdir "$work/o2" fixtures/programs/Run.hs -o "$work/profiled"
cd "$work"
python3 - "$runs" "$size" "$hpgraph" <<'PY'
import subprocess, sys, time
runs, size, hpgraph = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def best(cmd):
    b = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        b = min(b, time.perf_counter() - t)
    return b
print(f"{'build':<10} {'by hand':>9} {'hpgraph run':>12} {'ratio':>7} {'bound':>8}")
bad = 0
for build, flags in [("plain", ["-hT", "-l"]), ("profiled", ["-hc", "-l", "-p"])]:
    prog = f"./{build}"
    hand = best([prog, size, "+RTS", *flags, f"-ol{build}-hand.eventlog", "-RTS"])
    ours = best([hpgraph, "run", "-o", f"{build}.html", "--", prog, size])
    bound = 1.25 * hand + 0.5
    ok = ours <= bound
    bad += not ok
    print(f"{build:<10} {hand:8.2f}s {ours:11.2f}s {ours / hand:6.2f}x {bound:7.2f}s  {'met' if ok else 'NOT MET'}")
sys.exit(1 if bad else 0)
PY
