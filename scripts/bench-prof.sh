#!/usr/bin/env bash
# A time and allocation report to a flame graph: `hpgraph big.prof --measure time -o
# x.svg` against `inferno-collapse-ghcprof --ticks big.prof | inferno-flamegraph`, side
# by side on the shared generator's 73 MB report of 400,000 stacks
# (`../shared/tools/gen_prof.py 400000 5`; the target: at least 4x inferno's time in at
# most 150 MB), best of N runs each, and hpgraph's peak memory. Not a test: timings vary
# between machines. scripts/bench-goals.sh runs this beside the other goals.
#
#   scripts/bench-prof.sh [--runs N] [FILE.prof]
#   (needs inferno-collapse-ghcprof and inferno-flamegraph: cargo install inferno)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
if [ "${1:-}" = --runs ]; then runs=$2; shift 2; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prof=${1:-}
if [ -z "$prof" ]; then
  python3 ../shared/tools/gen_prof.py 400000 5 > "$work/big.prof"
  prof=$work/big.prof
fi
cargo build --release --quiet --bin hpgraph
python3 - "$runs" "$prof" "$PWD/target/release/hpgraph" "$work" <<'PY'
import os, subprocess, sys, time
runs, prof, hpgraph, work = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
def best(shell):
    b = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(shell, shell=True, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        b = min(b, time.perf_counter() - t)
    return b
ours = best(f"'{hpgraph}' '{prof}' --measure time -o '{work}/ours.svg'")
theirs = best(f"inferno-collapse-ghcprof --ticks '{prof}' | inferno-flamegraph > '{work}/theirs.svg'")
pid = os.fork()
if pid == 0:
    os.execv(hpgraph, [hpgraph, prof, "--measure", "time", "-o", f"{work}/mem.svg"])
_, _, usage = os.wait4(pid, 0)
mb = os.path.getsize(prof) / 1048576
print(f"{os.path.basename(prof)}: {mb:.0f} MB")
print(f"hpgraph --measure time -o x.svg              {ours * 1000:8.0f} ms   peak {usage.ru_maxrss / 1024:.0f} MB")
print(f"inferno-collapse-ghcprof | inferno-flamegraph {theirs * 1000:8.0f} ms")
print(f"ratio {theirs / ours:.2f}x (target: at least 4x, in at most 150 MB)")
PY
