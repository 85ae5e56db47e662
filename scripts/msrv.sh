#!/usr/bin/env bash
# The oldest Rust the dependencies allow: the highest `rust-version` that any crate in
# the build (normal and build dependencies, as Cargo.lock resolves them) declares. Only
# one toolchain is installed here, so this is read from the crates' own manifests rather
# than found by building with older compilers; Cargo's MSRV-aware resolver keeps the lock
# within Cargo.toml's rust-version, and clippy's incompatible_msrv lint (on in CI, as
# warnings are errors) rejects standard-library APIs newer than it.
# usage: scripts/msrv.sh [N]   (N: how many of the highest to list, default 8)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
top = int(sys.argv[1])
m = json.load(sys.stdin)
nodes = {n["id"]: n for n in m["resolve"]["nodes"]}
packages = {p["id"]: p for p in m["packages"]}
seen, stack = set(), [m["resolve"]["root"]]
while stack:
    i = stack.pop()
    if i in seen:
        continue
    seen.add(i)
    for d in nodes[i]["deps"]:
        if any(k["kind"] in (None, "build") for k in d["dep_kinds"]):
            stack.append(d["pkg"])
def version(p):
    return tuple(int(x) for x in (p.get("rust_version") or "0").split("."))
declared = sorted((version(packages[i]), packages[i]["name"], packages[i]["version"])
                  for i in seen if packages[i]["name"] != "hpgraph")
undeclared = [packages[i]["name"] for i in seen if not packages[i].get("rust_version")]
def dotted(v):
    return ".".join(map(str, v))
for v, name, ver in reversed(declared[-top:]):
    print(f"{name} {ver}: rust-version {dotted(v)}")
print(f"{len(seen) - 1} crates, {len(undeclared)} declaring no rust-version")
print("oldest Rust the dependencies allow:", dotted(declared[-1][0]))
' "${1:-8}"
