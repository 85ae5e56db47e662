#!/usr/bin/env bash
# Differential check against the real hp2ps: for every profile and flag set, runs hp2ps
# and hpgraph in scratch folders of their own and compares the .ps (%%Creator aside) and
# .aux bytes. Each flag set is also run as a -p round trip (run, then run again with -p,
# reading the .aux the first run wrote). Cases where hp2ps itself fails are listed, not
# counted (reported as skipped): hpgraph does better there on purpose (see README).
# usage: scripts/compare-with-hp2ps.sh [--cand BIN] [--flags "F"]... FILE.hp...
# exit status: 0 when every case hp2ps renders is identical, 1 otherwise.
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
if [ ${#flagsets[@]} -eq 0 ]; then
  flagsets=("" "-c" "-e8in" "-g" "-d" "-i-" "-m5" "-t0 -m0" "-b -y" "-M" "-t3.5 -d -c"
            "-e120mm -i" "-s -m25")
fi
command -v hp2ps >/dev/null || { echo "hp2ps not found (Debian package ghc)"; exit 1; }
cand=$(cd "$(dirname "$cand")" && pwd)/$(basename "$cand")
same=0 differ=0 skipped=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# hp2ps's PostScript as hpgraph is meant to write it: without %%Creator, and with a line
# break inside the job or date (which would end a header comment and run the rest as
# PostScript) turned into a space, the one repair hpgraph makes to hp2ps's bytes.
expected_ps() {
  python3 - "$1" <<'PY'
import sys
ps = open(sys.argv[1], "rb").read()
end = ps.find(b"%%EndComments\n")
head = bytearray(ps[:max(end, 0)])
for i, c in enumerate(head):
    if (c == 10 and i + 1 < len(head) and head[i + 1] != ord("%")) or (c < 32 and c not in (9, 10)):
        head[i] = 32
out = bytes(head) + ps[max(end, 0):]
sys.stdout.buffer.write(b"".join(l for l in out.splitlines(True) if not l.startswith(b"%%Creator")))
PY
}

# compare NAME HP ROUNDTRIP(yes|no) FLAGS...: renders with both programs; prints a verdict.
compare() {
  local name=$1 hp=$2 roundtrip=$3; shift 3
  local ref=$scratch/ref cnd=$scratch/cand rr cr
  rm -rf "$ref" "$cnd"; mkdir -p "$ref" "$cnd"
  cp "$hp" "$ref/$name.hp"; cp "$hp" "$cnd/$name.hp"
  if [ "$roundtrip" = yes ]; then
    (cd "$ref" && hp2ps "$@" "$name.hp" && hp2ps -p "$@" "$name.hp") >/dev/null 2>&1; rr=$?
    (cd "$cnd" && "$cand" "$@" "$name.hp" && "$cand" -p "$@" "$name.hp") >/dev/null 2>&1; cr=$?
  else
    (cd "$ref" && hp2ps "$@" "$name.hp") >/dev/null 2>&1; rr=$?
    (cd "$cnd" && "$cand" "$@" "$name.hp") >/dev/null 2>&1; cr=$?
  fi
  local label="$name	$*"
  [ "$roundtrip" = yes ] && label="$name	-p round trip of: $*"
  if [ $rr -ne 0 ]; then
    skipped=$((skipped + 1)); echo "$label	hp2ps failed (exit $rr)"
  elif [ $cr -ne 0 ]; then
    differ=$((differ + 1)); echo "$label	HPGRAPH FAILED (exit $cr)"
  elif cmp -s <(expected_ps "$ref/$name.ps") <(grep -av '^%%Creator' "$cnd/$name.ps") \
       && cmp -s "$ref/$name.aux" "$cnd/$name.aux"; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    local line
    line=$(cmp <(expected_ps "$ref/$name.ps") <(grep -av '^%%Creator' "$cnd/$name.ps") | sed 's/.*line //')
    echo "$label	DIFFER (.ps line ${line:-?} without %%Creator; or .aux)"
  fi
}

for hp in "$@"; do
  name=$(basename "$hp" .hp)
  for f in "${flagsets[@]}"; do
    # shellcheck disable=SC2086
    compare "$name" "$hp" no $f
    # shellcheck disable=SC2086
    compare "$name" "$hp" yes $f
  done
done
echo "comparison: $same passed, $differ failed, $skipped skipped"
[ $differ -eq 0 ]
