#!/usr/bin/env bash
# Rebuilds the test fixtures from scratch:
#   1. compiles fixtures/programs/*.hs for profiling and runs each under every heap
#      profiling mode, writing fixtures/profiles/<Program>-<mode>.hp;
#   2. runs the real hp2ps (GHC 9.0.2) on every profile in fixtures/profiles and
#      fixtures/edge with each flag set of the matrix below, and stores what it wrote in
#      fixtures/golden/<profile>/<tag>.{ps,aux} plus a line in fixtures/golden/MANIFEST.tsv;
#   3. builds the programs again with -eventlog and runs each with +RTS -l under every
#      break-down, keeping both files of each run: fixtures/eventlog/<Program>-<mode>.hp
#      and .eventlog (GHC's own .hp and eventlog of one run, the eventlog reader's
#      reference). -hT runs a build without profiling, as most people run it.
# Needs: ghc, ghc-prof (Debian packages), which bring hp2ps.
# usage: scripts/regen-fixtures.sh [--golden-only | --eventlog-only]
set -euo pipefail
# The .hp DATE and the eventlog-derived one are local times: one zone for both.
export TZ=UTC
cd "$(dirname "$0")/.."
top=$PWD

# Flag sets: tag, then the flags. A tag starting with "p-" is a round trip: hp2ps runs
# once with the flags, then again with -p and the same flags; the second run is kept.
MATRIX=(
  "default|"
  "c|-c"
  "e8in|-e8in"
  "g|-g"
  "d|-d"
  "i-desc|-i-"
  "m5|-m5"
  "t0-m0|-t0 -m0"
  "b-y|-b -y"
  "M|-M"
  "t3.5-d-c|-t3.5 -d -c"
  "e120mm-i|-e120mm -i"
  "s-m25|-s -m25"
  "p-default|"
  "p-m5|-m5"
)

# Program, then the RTS options of each run: every -h mode, plus -hbdrag,void and -R2.
MODES=(
  "hT|-hT"
  "hc|-hc"
  "hm|-hm"
  "hd|-hd"
  "hy|-hy"
  "hr|-hr"
  "hb|-hb"
  "hc-hbdrag,void|-hc -hbdrag,void"
  "hr-R2|-hr -R2"
)

# Eventlog runs: mode, then its RTS options. -A16m -kc1m keep the files small (fewer
# collections and stack-chunk events) without changing what the census sees.
EVENTLOG_MODES=(
  "hT|-hT"
  "hc|-hc"
  "hd|-hd"
  "hy|-hy"
  "hm|-hm"
  "hr|-hr"
  "hb|-hb"
  "hc-hbdrag,void|-hc -hbdrag,void"
)

eventlog_runs() {
  local build
  build=$(mktemp -d)
  mkdir -p fixtures/eventlog
  rm -f fixtures/eventlog/*.hp fixtures/eventlog/*.eventlog
  for src in fixtures/programs/*.hs; do
    prog=$(basename "$src" .hs)
    ghc -O0 -prof -fprof-auto -rtsopts -eventlog -outputdir "$build/$prog.p" -o "$build/$prog-p" "$src" >/dev/null
    ghc -O0 -rtsopts -eventlog -outputdir "$build/$prog.o" -o "$build/$prog-v" "$src" >/dev/null
    for m in "${EVENTLOG_MODES[@]}"; do
      tag=${m%%|*} rts=${m#*|}
      exe=$prog-p
      [ "$tag" = hT ] && exe=$prog-v
      run=$(mktemp -d)
      cp "$build/$exe" "$run/$prog"
      # shellcheck disable=SC2086
      (cd "$run" && ./$prog +RTS $rts -l -A16m -kc1m -i0.02 -RTS >/dev/null)
      cp "$run/$prog.hp" "fixtures/eventlog/$prog-$tag.hp"
      cp "$run/$prog.eventlog" "fixtures/eventlog/$prog-$tag.eventlog"
      rm -rf "$run"
    done
  done
  rm -rf "$build"
  echo "eventlog runs: $(ls fixtures/eventlog/*.eventlog | wc -l); size: $(du -sh fixtures/eventlog | cut -f1)"
}

if [ "${1:-}" = "--eventlog-only" ]; then
  eventlog_runs
  exit 0
fi

if [ "${1:-}" != "--golden-only" ]; then
  build=$(mktemp -d)
  trap 'rm -rf "$build"' EXIT
  mkdir -p fixtures/profiles
  rm -f fixtures/profiles/*.hp
  for src in fixtures/programs/*.hs; do
    prog=$(basename "$src" .hs)
    ghc -O0 -prof -fprof-auto -rtsopts -outputdir "$build/$prog.o" -o "$build/$prog" "$src" >/dev/null
    for m in "${MODES[@]}"; do
      tag=${m%%|*} rts=${m#*|}
      run=$(mktemp -d)
      # shellcheck disable=SC2086
      (cd "$run" && "$build/$prog" +RTS $rts -i0.02 -RTS >/dev/null)
      # The runtime names the file after the program; the JOB line keeps the build path,
      # which is replaced by the program name so the fixture says nothing of this machine.
      sed "1s|^JOB \".*/$prog |JOB \"$prog |" "$run/$prog.hp" > "fixtures/profiles/$prog-$tag.hp"
      rm -rf "$run"
    done
  done
fi

golden=fixtures/golden
rm -rf "$golden"
mkdir -p "$golden"
printf 'profile\ttag\tflags\texit\n' > "$golden/MANIFEST.tsv"
for hp in fixtures/profiles/*.hp fixtures/edge/*.hp; do
  name=$(basename "$hp" .hp)
  mkdir -p "$golden/$name"
  for entry in "${MATRIX[@]}"; do
    tag=${entry%%|*} flags=${entry#*|}
    work=$(mktemp -d)
    cp "$hp" "$work/$name.hp"
    set +e
    # shellcheck disable=SC2086
    if [[ $tag == p-* ]]; then
      (cd "$work" && hp2ps $flags "$name.hp" >/dev/null 2>&1 && hp2ps -p $flags "$name.hp" >/dev/null 2>&1)
    else
      (cd "$work" && hp2ps $flags "$name.hp" >/dev/null 2>&1)
    fi
    rc=$?
    set -e
    if [ $rc -eq 0 ]; then
      grep -av '^%%Creator' "$work/$name.ps" > "$golden/$name/$tag.ps"
      cp "$work/$name.aux" "$golden/$name/$tag.aux"
    fi
    printf '%s\t%s\t%s\t%s\n' "$name" "$tag" "$flags" "$rc" >> "$golden/MANIFEST.tsv"
    rm -rf "$work"
  done
done
echo "profiles: $(ls fixtures/profiles | wc -l); golden cases: $(($(wc -l < "$golden/MANIFEST.tsv") - 1)); size: $(du -sh "$golden" | cut -f1)"
if [ "${1:-}" != "--golden-only" ]; then
  eventlog_runs
fi
