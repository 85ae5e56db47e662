#!/usr/bin/env bash
# Same-run .hp/eventlog pairs from a newer GHC than the system's, for the eventlog
# reader's tests: fixtures/eventlog-<GHC>/<Program>-<mode>.{hp,eventlog}, and for each
# -hi run <Program>-<mode>.ipe, ghc-events' reading of its IPE events (scripts/ipe-oracle.hs).
#   ../shared/tools/ghc-chroot setup /opt/ghc-trixie trixie   # GHC 9.6.6, once
#   ../shared/tools/ghc-chroot setup /opt/ghc-sid sid         # GHC 9.10.3, once
#   scripts/regen-fixtures-newer.sh /opt/ghc-trixie 9.6
#   scripts/regen-fixtures-newer.sh /opt/ghc-sid 9.10
# The programs are built with -finfo-table-map -fdistinct-constructor-tables (what -hi
# needs, and what makes the runtime write IPE events for every break-down), profiled and
# not; Markers calls traceMarkerIO; Quick ends before the first census.
# Needs: the chroot (ghc-chroot, which needs root), the system's ghc with ghc-events
# (Debian: ghc, libghc-ghc-events-dev) for the IPE oracle.
set -euo pipefail
export TZ=UTC
root=${1:?the chroot, e.g. /opt/ghc-trixie}
ghc=${2:?the GHC it has, e.g. 9.6}
cd "$(dirname "$0")/.."
chroot_tool=${GHC_CHROOT:-../shared/tools/ghc-chroot}
out=fixtures/eventlog-$ghc
oracle=$(mktemp -d)
trap 'rm -rf "$oracle"' EXIT
ghc -O -outputdir "$oracle" scripts/ipe-oracle.hs -o "$oracle/ipe-oracle" >/dev/null

# Program, build (p: profiled, v: not), mode tag, RTS options.
RUNS=(
  "Leak|v|hT|-hT"
  "Leak|v|hi-v|-hi"
  "Leak|p|hc|-hc"
  "Leak|p|hd|-hd"
  "Leak|p|hy|-hy"
  "Leak|p|hm|-hm"
  "Leak|p|hr|-hr"
  "Leak|p|hb|-hb"
  "Leak|p|hc-hbdrag,void|-hc -hbdrag,void"
  "Leak|p|hi|-hi"
  "ManyCC|p|hc|-hc -L60"
  "ManyCC|p|hi|-hi"
  "Markers|v|hT|-hT"
  "Markers|p|hc|-hc"
  "Names|v|hi-v|-hi"
  "Quick|v|hT|-hT -i0.01"
  "Quick|p|hc|-hc -i0.01"
)
case $ghc in
  9.1[0-9]*) RUNS+=("Leak|p|he|-he --automatic-era-increment" "MapBuild|p|he|-he --automatic-era-increment") ;;
esac

work=$root/w-fixtures
rm -rf "$work" && mkdir -p "$work" && cp fixtures/programs/*.hs "$work/"
mkdir -p "$out" && rm -f "$out"/*
built=()
for run in "${RUNS[@]}"; do
  IFS='|' read -r prog build tag rts <<<"$run"
  exe=$prog-$build
  if [[ ! " ${built[*]-} " =~ " $exe " ]]; then
    flags="-O0 -rtsopts -finfo-table-map -fdistinct-constructor-tables"
    [ "$build" = p ] && flags="$flags -prof -fprof-auto"
    "$chroot_tool" run "$root" "cd /w-fixtures && ghc $flags -outputdir $exe.o -o $exe $prog.hs >/dev/null 2>&1"
    built+=("$exe")
  fi
  # The runtime names its files after the program: run it as <Program>.
  "$chroot_tool" run "$root" "cd /w-fixtures && rm -rf run && mkdir run && cp $exe run/$prog && cd run && TZ=UTC ./$prog +RTS $rts -l -A16m -kc1m -i0.02 -RTS >/dev/null"
  cp "$work/run/$prog.hp" "$out/$prog-$tag.hp"
  cp "$work/run/$prog.eventlog" "$out/$prog-$tag.eventlog"
  if [[ $tag == hi* ]]; then
    "$oracle/ipe-oracle" "$out/$prog-$tag.eventlog" > "$out/$prog-$tag.ipe"
  fi
done
"$chroot_tool" run "$root" 'ghc --version' > "$out/GHC-VERSION"
rm -rf "$work"
echo "$out: $(ls "$out"/*.eventlog | wc -l) runs, $(du -sh "$out" | cut -f1)"
