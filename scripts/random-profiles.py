#!/usr/bin/env python3
"""Writes random .hp files that stress hp2ps's corner cases, for differential checks
with scripts/compare-with-hp2ps.sh: equal totals (ties in the non-stable sorts), names
sharing a hash bucket, repeated names in one sample, points between samples, equal
sample times, single samples, zero totals, marks outside the time range, long jobs,
long names and more than twenty bands.

usage: scripts/random-profiles.py OUTDIR COUNT [SEED]
"""
import os
import random
import sys


def name(rng, i):
    kinds = [
        lambda: f"id{i}",
        lambda: f"(12{i})main/Main.f{i}",
        lambda: f"<main:Main.sat_s{i}>",
        lambda: "".join(rng.choice("abcXYZ_.:()[]{}<>,'") for _ in range(rng.randint(1, 12))) + str(i),
        lambda: "W" * rng.randint(5, 40) + str(i),
    ]
    if rng.random() < 0.03:
        return f"{rng.randint(1, 999)}x{i}"  # hp2ps -p cannot read these back (Q14)
    return rng.choice(kinds)()


def profile(rng):
    n_names = rng.choice([1, 2, 3, 5, 8, 19, 20, 21, 25, 30, 45, 70, 150, 300])
    names = [name(rng, i) for i in range(n_names)]
    # Names that share hash buckets: "a" and "d<+" both hash to 97.
    if rng.random() < 0.3:
        names += ["a", "d<+"]
    n_samples = rng.choice([1, 2, 3, 5, 10, 40])
    job = rng.choice(["prog +RTS -hc", "x" * rng.randint(30, 90), "a (b) c", "job"])
    lines = [f'JOB "{job}"', 'DATE "Mon Jan  1 00:00 2024"',
             'SAMPLE_UNIT "seconds"', f'VALUE_UNIT "{rng.choice(["bytes", "B", "words"])}"']
    t = 0.0
    values = rng.choice([[0, 1, 2], [100, 200, 300], None])
    for s in range(n_samples):
        if rng.random() < 0.8:
            t += rng.choice([0.0, 0.01, 0.1, 0.25, 1.0, 3.7])
        if rng.random() < 0.1:
            lines.append(f"MARK {rng.uniform(0, t + 2):.2f}")
        if rng.random() < 0.1 and s > 0:
            lines.append(f"{rng.choice(names)}\t{rng.randint(1, 5000)}")  # between samples
        lines.append(f"BEGIN_SAMPLE {t:.2f}")
        for nm in rng.sample(names, rng.randint(0, len(names))):
            v = rng.choice(values) if values else rng.choice([0, rng.randint(1, 10**rng.randint(1, 9))])
            lines.append(f"{nm}\t{v}")
            if rng.random() < 0.05:
                lines.append(f"{nm}\t{rng.randint(0, 1000)}")  # repeated in one sample
        lines.append(f"END_SAMPLE {t:.2f}")
    return "\n".join(lines) + "\n"


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    os.makedirs(out, exist_ok=True)
    for k in range(count):
        with open(os.path.join(out, f"r{k:04d}.hp"), "w") as f:
            f.write(profile(rng))


if __name__ == "__main__":
    main()
