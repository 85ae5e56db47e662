#!/usr/bin/env bash
# Remakes fixtures/compare: a leak and its fix (fixtures/programs/Leak.hs and
# LeakFixed.hs), each run once with GHC's profiling runtime, which writes both the .hp
# file and the eventlog of the run. Needs ghc and ghc-prof (Debian's GHC 9.0.2 made
# the files that are there).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
mkdir -p "$root/fixtures/compare"
for prog in Leak LeakFixed; do
    ghc -O0 -prof -fprof-auto -rtsopts -eventlog -outputdir "$build/$prog.o" \
        -o "$build/$prog" "$root/fixtures/programs/$prog.hs" >/dev/null
    (cd "$build" && "./$prog" +RTS -hc -l -A16m -kc1m -i0.02 -RTS >/dev/null)
    cp "$build/$prog.hp" "$root/fixtures/compare/$prog-hc.hp"
    cp "$build/$prog.eventlog" "$root/fixtures/compare/$prog-hc.eventlog"
done
echo "fixtures/compare: $(ls "$root/fixtures/compare" | tr '\n' ' ')"
