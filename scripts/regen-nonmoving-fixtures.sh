#!/usr/bin/env bash
# Runs of programs on the non-moving collector, for the reader's and --stats' tests:
# fixtures/nonmoving/ghc-<VERSION>/<Program>-<tag>.eventlog, beside it the runtime's own
# `+RTS -s` text (.s) and ghc-events' reading of its non-moving events (.nonmoving,
# scripts/nonmoving-oracle.hs, built against the ghc-events of the same system).
#   scripts/regen-nonmoving-fixtures.sh                      # the system's GHC (9.0.2)
#   scripts/regen-nonmoving-fixtures.sh /opt/ghc-trixie      # GHC 9.6.6 (../shared/tools/ghc-chroot)
#   scripts/regen-nonmoving-fixtures.sh /opt/ghc-sid         # GHC 9.10.3
# Each system needs ghc, ghc-prof and libghc-ghc-events-dev.
set -euo pipefail
export TZ=UTC
cd "$(dirname "$0")/.."
root=${1:-}
chroot_tool=${GHC_CHROOT:-../shared/tools/ghc-chroot}
# Runs a shell command on the system the fixtures are made with, in its work directory.
on() {
  if [ -n "$root" ]; then "$chroot_tool" run "$root" "cd /w-nonmoving && $1"; else (cd "$work" && bash -c "$1"); fi
}
if [ -n "$root" ]; then work=$root/w-nonmoving; else work=$(mktemp -d); fi
rm -rf "$work" && mkdir -p "$work"
cp fixtures/programs/{Leak,MapBuild,Cache}.hs scripts/nonmoving-oracle.hs "$work/"
version=$(on 'ghc --numeric-version')
out=fixtures/nonmoving/ghc-$version
mkdir -p "$out" && rm -f "$out"/*
on 'ghc -O -outputdir o-oracle nonmoving-oracle.hs -o oracle >/dev/null'

# Program, build (t: threaded, v: not), tag, RTS options. The non-threaded runtime
# collects the non-moving heap inside the major collection (nothing concurrent).
RUNS=(
  "Leak|t|N1|-N1"
  "Leak|t|N2|-N2"
  "Leak|v|plain|"
  "MapBuild|t|N2|-N2"
  "Cache|t|N2|-N2"
)
for run in "${RUNS[@]}"; do
  IFS='|' read -r prog build tag rts <<<"$run"
  exe=$prog-$build
  flags="-O0 -rtsopts -eventlog"
  [ "$build" = t ] && flags="$flags -threaded"
  [ -x "$work/$exe" ] || on "ghc $flags -outputdir o-$exe -o $exe $prog.hs >/dev/null 2>&1"
  name=$prog-$tag
  on "./$exe +RTS -xn -ln $rts -s$name.s -ol$name.eventlog -RTS >/dev/null"
  on "./oracle $name.eventlog > $name.nonmoving"
  cp "$work/$name".{eventlog,s,nonmoving} "$out/"
done
rm -rf "$work"
echo "$out: $(ls "$out"/*.eventlog | wc -l) runs, $(du -sh "$out" | cut -f1)"
