#!/usr/bin/env bash
# The cost-centre profiles of fixtures/prof/MapFib.hs as one GHC writes them:
# fixtures/prof/ghc-<version>/MapFib-{p,P,pa,pj}.prof (the report's text and JSON forms),
# MapFib-samples.eventlog (+RTS -p -l-au: cost-centre samples only) and
# MapFib-samples-hc.eventlog (+RTS -p -hc -l: samples, a heap profile and GC events in
# one eventlog), each eventlog with ghc-events' reading of its samples beside it
# (.samples, scripts/samples-oracle.hs), which the tests weigh stacks by; and a
# retainer profile with the report that names its sets (Leak-hr.hp, Leak-hr.prof);
# Newline-{P,pj}.prof, whose labels hold line breaks (fixtures/prof/Newline.hs); and
# Deep-{P,pj}.prof, stacks 58 frames deep (fixtures/prof/Deep.hs; the tests read GHC 9.10's).
#   scripts/regen-prof-fixtures.sh                      # the system's GHC (9.0.2 on bookworm)
#   scripts/regen-prof-fixtures.sh /opt/ghc-trixie      # GHC 9.6.6 (../shared/tools/ghc-chroot)
#   scripts/regen-prof-fixtures.sh /opt/ghc-sid         # GHC 9.10.3
#   scripts/regen-prof-fixtures.sh --pandoc             # a real program: pandoc's library
#     (fixtures/prof/Pandoc.hs; Debian: libghc-pandoc-prof) with the system's GHC, to
#     fixtures/prof/pandoc-ghc-<version>/Pandoc-{P,pj}.prof and Pandoc-samples.eventlog
# Needs: the system's ghc with ghc-events (Debian: ghc, ghc-prof, libghc-ghc-events-dev).
set -euo pipefail
export TZ=UTC
root=${1:-}
program=MapFib
if [ "$root" = --pandoc ]; then root= program=Pandoc; fi
cd "$(dirname "$0")/.."
chroot_tool=${GHC_CHROOT:-../shared/tools/ghc-chroot}
oracle=$(mktemp -d)
trap 'rm -rf "$oracle"' EXIT
ghc -O -outputdir "$oracle" scripts/samples-oracle.hs -o "$oracle/samples-oracle" >/dev/null

if [ -n "$root" ]; then
  work=$root/w-prof
  in_ghc() { "$chroot_tool" run "$root" "cd /w-prof && $1"; }
else
  work=$(mktemp -d)
  in_ghc() { (cd "$work" && bash -c "$1"); }
fi
rm -rf "$work" && mkdir -p "$work" && cp "fixtures/prof/$program.hs" "$work/"
version=$(in_ghc 'ghc --numeric-version')
# GHC before 9.4 links the eventlog into a profiled program only when asked.
case $version in 9.[0-3].*|8.*) eventlog=-eventlog ;; *) eventlog= ;; esac
in_ghc "ghc -O0 -prof -fprof-auto -rtsopts $eventlog $program.hs -o $program >/dev/null"
# Tag and RTS options of each run; the runtime names its files after the program.
if [ $program = Pandoc ]; then
  out=fixtures/prof/pandoc-ghc-$version
  runs=("P|-P" "pj|-pj" "samples|-p -l-au")
else
  out=fixtures/prof/ghc-$version
  runs=("p|-p" "P|-P" "pa|-pa" "pj|-pj" "samples|-p -l-au" "samples-hc|-p -hc -l -i0.02")
fi
mkdir -p "$out"
for run in "${runs[@]}"; do
  IFS='|' read -r tag rts <<<"$run"
  in_ghc "rm -f $program.prof $program.eventlog $program.hp && ./$program +RTS $rts -RTS >/dev/null 2>&1"
  case $tag in
    samples*)
      cp "$work/$program.eventlog" "$out/$program-$tag.eventlog"
      "$oracle/samples-oracle" "$out/$program-$tag.eventlog" > "$out/$program-$tag.samples"
      ;;
    *) cp "$work/$program.prof" "$out/$program-$tag.prof" ;;
  esac
done
# A retainer profile and the report that names its sets in full (fixtures/programs/Leak.hs):
# Leak-hr.hp and Leak-hr.prof, one stem as hpgraph looks for them.
if [ $program = MapFib ]; then
  cp fixtures/programs/Leak.hs "$work/"
  in_ghc "ghc -O0 -prof -fprof-auto -rtsopts Leak.hs -o Leak >/dev/null && rm -f Leak.hp Leak.prof && ./Leak +RTS -hr -i0.02 -RTS >/dev/null"
  cp "$work/Leak.hp" "$out/Leak-hr.hp"
  cp "$work/Leak.prof" "$out/Leak-hr.prof"
  # Labels holding line breaks (fixtures/prof/Newline.hs): a text report's row runs over
  # as many lines; the JSON writes them \n. Stacks 61 frames deep (fixtures/prof/Deep.hs).
  for p in Newline Deep; do
    cp "fixtures/prof/$p.hs" "$work/"
    in_ghc "ghc -O0 -prof -fprof-auto -rtsopts $p.hs -o $p >/dev/null"
    for tag in P pj; do
      in_ghc "rm -f $p.prof && ./$p +RTS -$tag -RTS >/dev/null"
      cp "$work/$p.prof" "$out/$p-$tag.prof"
    done
  done
fi
rm -rf "$work"
echo "$out: $(ls "$out" | wc -l) files, $(du -sh "$out" | cut -f1)"
