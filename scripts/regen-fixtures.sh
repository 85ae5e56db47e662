#!/usr/bin/env bash
# Rebuilds the test fixtures from scratch:
#   1. compiles fixtures/programs/*.hs for profiling and runs each under every heap
#      profiling mode, writing fixtures/profiles/<Program>-<mode>.hp;
#   2. runs the real hp2ps (GHC 9.0.2) on every profile in fixtures/profiles and
#      fixtures/edge with each flag set of the matrix below, and stores what it wrote in
#      fixtures/golden/<profile>/<tag>.{ps,aux} plus a line in fixtures/golden/MANIFEST.tsv.
# Needs: ghc, ghc-prof (Debian packages), which bring hp2ps.
# usage: scripts/regen-fixtures.sh [--golden-only]
set -euo pipefail
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
