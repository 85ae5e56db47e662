#!/usr/bin/env python3
"""Differential check against the real hp2ps.

For every profile and flag set, runs hp2ps and hpgraph in scratch folders of their own
and compares the .ps (%%Creator aside) and .aux bytes. Each flag set is also run as a -p
round trip (run, then run again with -p, reading the .aux the first run wrote). Cases
where hp2ps itself fails are listed, not counted (reported as skipped): hpgraph does
better there on purpose (see README).

One interpreter for every case, the cases spread over the machine's cores: starting an
interpreter per case cost more than the case itself.

usage: scripts/compare-with-hp2ps.py [--cand BIN] [--flags "F"]... [--jobs N] FILE.hp...
exit status: 0 when every case hp2ps renders is identical, 1 otherwise.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

FLAGSETS = ["", "-c", "-e8in", "-g", "-d", "-i-", "-m5", "-t0 -m0", "-b -y", "-M",
            "-t3.5 -d -c", "-e120mm -i", "-s -m25"]


def expected_ps(ps):
    """hp2ps's PostScript as hpgraph is meant to write it: without %%Creator, and with a
    line break inside the job or date (which would end a header comment and run the rest
    as PostScript) turned into a space, the one repair hpgraph makes to hp2ps's bytes."""
    end = ps.find(b"%%EndComments\n")
    head = bytearray(ps[:max(end, 0)])
    for i, c in enumerate(head):
        if (c == 10 and i + 1 < len(head) and head[i + 1] != ord("%")) or \
                (c < 32 and c not in (9, 10)):
            head[i] = 32
    return without_creator(bytes(head) + ps[max(end, 0):])


def without_creator(ps):
    return b"".join(l for l in ps.splitlines(True) if not l.startswith(b"%%Creator"))


def first_difference(a, b):
    """The line (1-based) where two byte strings first differ, as cmp(1) reports it."""
    line = 1
    for x, y in zip(a, b):
        if x != y:
            return line
        line += x == 10
    return line if len(a) != len(b) else None


def run(program, flags, name, folder, roundtrip):
    """Runs `program FLAGS NAME.hp` in `folder` (then again with -p for a round trip);
    the exit status of the first run that fails, else 0."""
    runs = [[program, *flags, f"{name}.hp"]]
    if roundtrip:
        runs.append([program, "-p", *flags, f"{name}.hp"])
    for argv in runs:
        code = subprocess.run(argv, cwd=folder, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        if code != 0:
            return code
    return 0


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def compare(case):
    """One case: ('same'|'differ'|'skipped', message or None)."""
    cand, scratch, hp, flags, roundtrip = case
    name = os.path.basename(hp)
    name = name[:-3] if name.endswith(".hp") else name
    label = f"{name}\t{'-p round trip of: ' if roundtrip else ''}{flags}"
    work = tempfile.mkdtemp(dir=scratch)
    try:
        ref, cnd = os.path.join(work, "ref"), os.path.join(work, "cand")
        for d in (ref, cnd):
            os.mkdir(d)
            shutil.copyfile(hp, os.path.join(d, f"{name}.hp"))
        argv = flags.split()
        rr = run("hp2ps", argv, name, ref, roundtrip)
        if rr != 0:
            return "skipped", f"{label}\thp2ps failed (exit {rr})"
        cr = run(cand, argv, name, cnd, roundtrip)
        if cr != 0:
            return "differ", f"{label}\tHPGRAPH FAILED (exit {cr})"
        want = expected_ps(read(os.path.join(ref, f"{name}.ps")) or b"")
        got = without_creator(read(os.path.join(cnd, f"{name}.ps")) or b"")
        aux_same = read(os.path.join(ref, f"{name}.aux")) == read(os.path.join(cnd, f"{name}.aux"))
        if want == got and aux_same:
            return "same", None
        line = first_difference(want, got)
        return "differ", f"{label}\tDIFFER (.ps line {line or '?'} without %%Creator; or .aux)"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cand", default="target/release/hpgraph")
    p.add_argument("--flags", action="append")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("files", nargs="+")
    a = p.parse_args()
    if shutil.which("hp2ps") is None:
        print("hp2ps not found (Debian package ghc)")
        return 1
    cand = os.path.abspath(a.cand)
    flagsets = a.flags if a.flags is not None else FLAGSETS
    counts = {"same": 0, "differ": 0, "skipped": 0}
    with tempfile.TemporaryDirectory() as scratch:
        cases = [(cand, scratch, os.path.abspath(hp), f, rt)
                 for hp in a.files for f in flagsets for rt in (False, True)]
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            for verdict, message in pool.map(compare, cases):
                counts[verdict] += 1
                if message:
                    print(message, flush=True)
    print(f"comparison: {counts['same']} passed, {counts['differ']} failed, "
          f"{counts['skipped']} skipped")
    return 0 if counts["differ"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
