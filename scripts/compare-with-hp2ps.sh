#!/usr/bin/env bash
# Differential check against the real hp2ps: for every profile and flag set, hp2ps's and
# hpgraph's .ps (%%Creator aside) and .aux bytes compared, each flag set also as a -p
# round trip. The work is compare-with-hp2ps.py's, one interpreter for every case.
# usage: scripts/compare-with-hp2ps.sh [--cand BIN] [--flags "F"]... [--jobs N] FILE.hp...
# exit status: 0 when every case hp2ps renders is identical, 1 otherwise.
exec python3 "$(dirname "$0")/compare-with-hp2ps.py" "$@"
