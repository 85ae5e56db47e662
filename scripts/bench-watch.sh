#!/usr/bin/env bash
# An idle live view: `hpgraph --watch` and `hpgraph --serve` of a profile that is no
# longer written (a finished run), the CPU each takes over 5 s once its first picture is
# drawn, from the kernel's count of the process's time (/proc/PID/stat), as a share of
# one core (the target: at most 1%). Not a test: timings vary from machine to machine.
#
#   scripts/bench-watch.sh [FILE]   (default fixtures/profiles/Leak-hc.hp)
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-fixtures/profiles/Leak-hc.hp}
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
cargo build --release --quiet --bin hpgraph
hz=$(getconf CLK_TCK)
cp "$profile" "$work/run.hp"
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
measure() {
  local what=$1; shift
  target/release/hpgraph "$work/run.hp" "$@" 2>"$work/$what.log" &
  local pid=$!
  pids+=("$pid")
  for _ in $(seq 100); do grep -q "drawn in\|serving" "$work/$what.log" && break; sleep 0.1; done
  sleep 1
  local a b
  a=$(cpu "$pid")
  sleep 5
  b=$(cpu "$pid")
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  printf '%-36s %5.2f%% of a core over 5 s (target: at most 1%%)\n' \
    "hpgraph $what, idle" "$(awk -v a="$a" -v b="$b" -v hz="$hz" 'BEGIN { print (b - a) * 100 / hz / 5 }')"
}
measure --watch --watch -o "$work/run.svg"
measure --serve --serve 127.0.0.1:0
