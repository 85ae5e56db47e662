#!/usr/bin/env bash
# Regenerates the gallery of docs/figures.md: one PNG a style and palette, drawn by
# hpgraph from a fixture eventlog, with the command beside each in the docs.
# usage: scripts/gallery.sh [--cand BIN]
set -euo pipefail
cd "$(dirname "$0")/.."
cand=target/release/hpgraph
[ "${1:-}" = --cand ] && cand=$2
[ -x "$cand" ] || cargo build --release --quiet
profile=fixtures/eventlog/ManyCC-hc.eventlog
out=docs/gallery
mkdir -p "$out"
# hpgraph keeps an .aux (band order) beside its output, as hp2ps does; the gallery
# wants only the pictures, so they are drawn elsewhere and moved.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# name|flags: the PNG's name and the flags that draw it (the docs show each command).
GALLERY=(
  "hp2ps|--style hp2ps"
  "hp2ps-colour|--style hp2ps -c"
  "modern-okabe-ito|--style modern --palette okabe-ito"
  "modern-viridis|--style modern --palette viridis"
  "modern-tableau10-stable|--style modern --palette tableau10 --stable-colours"
  "modern-grey-small|--style modern --palette grey --size 12cmx8cm"
)
for entry in "${GALLERY[@]}"; do
  name=${entry%%|*} flags=${entry#*|}
  # shellcheck disable=SC2086
  "$cand" $flags --dpi 72 "$profile" -o "$work/$name.png"
  mv "$work/$name.png" "$out/$name.png"
  echo "$out/$name.png: hpgraph $flags --dpi 72 $profile -o $name.png"
done
# docs/compare.md's picture: a leak and its fix.
"$cand" --compare fixtures/compare/Leak-hc.hp fixtures/compare/LeakFixed-hc.hp --dpi 72 \
  -o "$out/compare-leak.png"
echo "$out/compare-leak.png: hpgraph --compare Leak-hc.hp LeakFixed-hc.hp --dpi 72 -o compare-leak.png"
# docs/figures.md's flame graph: the peak census of the same run.
"$cand" --flame "$profile" --dpi 72 -o "$out/flame-manycc.png"
echo "$out/flame-manycc.png: hpgraph --flame $profile --dpi 72 -o flame-manycc.png"
# docs/figures.md's runtime figure at a column's width: heap graph, rate panel, GC strip.
"$cand" --style modern --heap-lines --size 8.5cmx5.5cm --dpi 200 fixtures/eventlog/Leak-hT.eventlog \
  -o "$out/runtime-column.png"
echo "$out/runtime-column.png: hpgraph --style modern --heap-lines --size 8.5cmx5.5cm Leak-hT.eventlog -o runtime-column.png"
