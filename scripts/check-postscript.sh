#!/usr/bin/env bash
# Renders hostile and random profiles with several flag sets and has Ghostscript
# interpret every result: it must run to the end without a PostScript error.
# The inputs: every fixture, profiles from scripts/random-profiles.py, and profiles
# whose names and header strings hold backslashes, unbalanced parentheses, quotes,
# UTF-8, invalid UTF-8 and line breaks in quoted strings.
# usage: scripts/check-postscript.sh [--cand BIN] [COUNT]
# Needs: ghostscript (Debian package), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
cand=target/release/hpgraph
if [ "${1:-}" = --cand ]; then cand=$2; shift 2; fi
count=${1:-60}
cand=$(cd "$(dirname "$cand")" && pwd)/$(basename "$cand")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/in"
cp fixtures/profiles/*.hp fixtures/edge/*.hp "$work/in/"
scripts/random-profiles.py "$work/in" "$count" 5
python3 - "$work/in" <<'PY'
import os, random, sys
rng = random.Random(3)
bits = [b"\\", b"(", b")", b"((", b"))", b"<&>", b'""', b" ", "é→😀".encode(), b"\xff\xfe", b"%%EOF", b"\\n"]
def text():
    return b"".join(rng.choice(bits) for _ in range(rng.randint(1, 6)))
for k in range(20):
    hp = [b'JOB "' + text() + b'\nsecond line"', b'DATE "' + text() + b'"',
          b'SAMPLE_UNIT "' + text() + b'"', b'VALUE_UNIT "' + text() + b'"']
    names = [text() + b"x" for _ in range(rng.randint(1, 30))]
    for s in range(rng.randint(1, 12)):
        hp.append(b"BEGIN_SAMPLE %d.0" % s)
        for n in rng.sample(names, rng.randint(0, len(names))):
            hp.append(n + b"\t%d" % rng.randint(0, 10**6))
        hp.append(b"END_SAMPLE %d.0" % s)
    open(os.path.join(sys.argv[1], "hostile%02d.hp" % k), "wb").write(b"\n".join(hp) + b"\n")
PY

checked=0 failed=0
for hp in "$work"/in/*.hp; do
  for flags in "" "-c -t0" "-M -m0 -t0" "-e8in -b" "-g -m25"; do
    # shellcheck disable=SC2086
    if ! "$cand" $flags -o "$work/out.ps" "$hp" 2> /dev/null; then
      continue  # not a profile (hp2ps's own truncated case): an error, not a picture
    fi
    checked=$((checked + 1))
    if ! gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=nullpage "$work/out.ps" > "$work/gs.log" 2>&1 \
       || grep -q "Error" "$work/gs.log"; then
      failed=$((failed + 1))
      echo "$(basename "$hp") [$flags]: $(head -c 300 "$work/gs.log")"
    fi
  done
done
echo "ghostscript: $((checked - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
