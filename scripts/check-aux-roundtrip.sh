#!/usr/bin/env bash
# Checks `-p` round trips against hp2ps: for each profile and flag set, run once (which
# writes BASE.aux), then run again with -p (which reads it), with hp2ps in one folder and
# hpgraph in another; the second .ps and .aux must be byte-identical (%%Creator aside).
# usage: scripts/check-aux-roundtrip.sh [--cand BIN] [--flags "F1" --flags "F2" ...] FILE.hp...
set -u
cand=target/release/hpgraph
flagsets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cand) cand=$2; shift 2 ;;
    --flags) flagsets+=("$2"); shift 2 ;;
    *) break ;;
  esac
done
[ ${#flagsets[@]} -eq 0 ] && flagsets=("" "-c" "-m5" "-d" "-i-" "-t0 -m0" "-M")
cand=$(cd "$(dirname "$cand")" && pwd)/$(basename "$cand")
bad=0
for hp in "$@"; do
  base=$(basename "$hp" .hp)
  for f in "${flagsets[@]}"; do
    ref=$(mktemp -d) cnd=$(mktemp -d)
    cp "$hp" "$ref/$base.hp"; cp "$hp" "$cnd/$base.hp"
    # shellcheck disable=SC2086
    (cd "$ref" && hp2ps $f "$base.hp" && hp2ps -p $f "$base.hp") >/dev/null 2>&1; rr=$?
    # shellcheck disable=SC2086
    (cd "$cnd" && "$cand" $f "$base.hp" && "$cand" -p $f "$base.hp") >/dev/null 2>&1; cr=$?
    if [ $rr -ne 0 ]; then
      echo "$base	-p $f	hp2ps failed (exit $rr)"
    elif [ $cr -ne 0 ]; then
      echo "$base	-p $f	HPGRAPH FAILED (exit $cr)"; bad=1
    elif cmp -s <(grep -av '^%%Creator' "$ref/$base.ps") <(grep -av '^%%Creator' "$cnd/$base.ps") \
         && cmp -s "$ref/$base.aux" "$cnd/$base.aux"; then
      echo "$base	-p $f	identical"
    else
      echo "$base	-p $f	DIFFER"; bad=1
    fi
    rm -rf "$ref" "$cnd"
  done
done
exit $bad
