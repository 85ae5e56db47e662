#!/usr/bin/env bash
# Sets heap profiles as a journal would print them, to look at: each profile drawn for
# a two-column paper (8.5 cm x 5.5 cm with the key beside and below the graph, 17 cm x
# 6 cm across both columns, and with --key file), on A4 pages of a two-column LaTeX
# article, at their natural size. Needs pdflatex (Debian: texlive-latex-base).
# usage: scripts/paper-page.sh [--cand BIN] OUT.pdf PROFILE...
set -euo pipefail
cand=$(pwd)/target/release/hpgraph
if [ "${1:-}" = --cand ]; then
  cand=$(realpath "$2")
  shift 2
fi
[ $# -ge 2 ] || { echo "usage: $0 [--cand BIN] OUT.pdf PROFILE..." >&2; exit 2; }
out=$(realpath -m "$1")
shift
command -v pdflatex >/dev/null || { echo "$0: needs pdflatex (texlive-latex-base)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo '\documentclass[twocolumn,10pt]{article}'
  echo '\usepackage[a4paper,margin=1.7cm,columnsep=0.5cm]{geometry}'
  echo '\usepackage{graphicx}'
  echo '\begin{document}'
} > "$work/paper.tex"
n=0
for profile in "$@"; do
  n=$((n + 1))
  name=$(basename "$profile")
  common=(--style modern --title '')
  "$cand" "$profile" "${common[@]}" --size 8.5cmx5.5cm -o "$work/$n-right.pdf"
  "$cand" "$profile" "${common[@]}" --size 8.5cmx5.5cm --key below -o "$work/$n-below.pdf"
  "$cand" "$profile" "${common[@]}" --size 8.5cmx5.5cm --key file -o "$work/$n-apart.pdf"
  "$cand" "$profile" "${common[@]}" --size 17cmx6cm -o "$work/$n-wide.pdf"
  # Names as LaTeX text: only letters, digits and a few marks survive.
  caption=$(printf '%s' "$name" | tr -c 'A-Za-z0-9.,-' ' ')
  cat >> "$work/paper.tex" <<EOF
\begin{figure}[p]\centering
\includegraphics{$n-right.pdf}\caption{$caption, key beside the graph.}\bigskip
\includegraphics{$n-below.pdf}\caption{$caption, key below.}\bigskip
\includegraphics{$n-apart.pdf}\\\\[3pt]\includegraphics{$n-apart-key.pdf}\caption{$caption, key as its own picture.}
\end{figure}
\begin{figure*}[p]\centering\includegraphics{$n-wide.pdf}\caption{$caption across both columns.}\end{figure*}
EOF
done
echo '\end{document}' >> "$work/paper.tex"
(cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error paper.tex >/dev/null) \
  || { echo "$0: pdflatex failed; its log:" >&2; tail -20 "$work/paper.log" >&2; exit 1; }
cp "$work/paper.pdf" "$out"
echo "$out: $n profile(s), $(pdfinfo "$out" 2>/dev/null | awk '/^Pages/ {print $2}') page(s)"
