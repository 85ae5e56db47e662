#!/usr/bin/env bash
# Four leaks of four kinds and their fixes as one GHC writes them (fixtures/programs):
# Cache.hs (a server's memo cache that is never evicted, freed as the program finishes)
# and CacheFixed.hs (the same cache bounded); Accumulator.hs (a total added up with the
# lazy modifyIORef) and AccumulatorFixed.hs (modifyIORef'); Records.hs (statistics in a
# record of lazy fields) and RecordsFixed.hs (strict fields); Log.hs (every log line kept
# in an IORef list) and LogFixed.hs (the last thousand kept). Each is run with -hT (the
# plain runtime) and -hc (the profiling one), each run's .hp and eventlog, to
# fixtures/leak/ghc-<version>/<program>-{hT,hc}.{hp,eventlog}.
#   scripts/regen-leak-fixtures.sh                   # the system's GHC (9.0.2 on bookworm)
#   scripts/regen-leak-fixtures.sh /opt/ghc-trixie   # GHC 9.6.6 (../shared/tools/ghc-chroot)
#   scripts/regen-leak-fixtures.sh /opt/ghc-sid      # GHC 9.10.3
#   PROGRAMS="Log LogFixed" scripts/regen-leak-fixtures.sh   # some of them only
# Needs: ghc and ghc-prof (Debian), or the chroot.
set -euo pipefail
export TZ=UTC
root=${1:-}
cd "$(dirname "$0")/.."
chroot_tool=${GHC_CHROOT:-../shared/tools/ghc-chroot}
if [ -n "$root" ]; then
  work=$root/w-leak
  in_ghc() { "$chroot_tool" run "$root" "cd /w-leak && $1"; }
else
  work=$(mktemp -d)
  in_ghc() { (cd "$work" && bash -c "$1"); }
fi
rm -rf "$work" && mkdir -p "$work"
version=$(in_ghc 'ghc --numeric-version')
# GHC before 9.4 links the eventlog into a program only when asked.
case $version in 9.[0-3].*|8.*) eventlog=-eventlog ;; *) eventlog= ;; esac
out=fixtures/leak/ghc-$version
mkdir -p "$out"
for program in ${PROGRAMS:-Cache CacheFixed Accumulator AccumulatorFixed Records RecordsFixed Log LogFixed}; do
  cp "fixtures/programs/$program.hs" "$work/"
  in_ghc "ghc -O0 -rtsopts $eventlog -outputdir o-plain $program.hs -o $program-hT >/dev/null"
  in_ghc "ghc -O0 -prof -fprof-auto -rtsopts $eventlog -outputdir o-prof $program.hs -o $program-hc >/dev/null"
  for tag in hT hc; do
    in_ghc "rm -f $program-$tag.hp $program-$tag.eventlog && ./$program-$tag +RTS -$tag -l -i0.01 -RTS >/dev/null"
    cp "$work/$program-$tag.hp" "$work/$program-$tag.eventlog" "$out/"
  done
done
rm -rf "$work"
echo "$out: $(ls "$out" | wc -l) files, $(du -sh "$out" | cut -f1)"
