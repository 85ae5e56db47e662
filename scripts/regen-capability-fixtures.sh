#!/usr/bin/env bash
# Runs of a concurrent program on two and four capabilities, for the capabilities'
# activity (`--summary`'s "capabilities", the strips) and `--stats`' SPARKS line:
# fixtures/capabilities/ghc-<VERSION>/Workers-<tag>.eventlog, beside it the runtime's
# own `+RTS -s` text (.s) and ghc-events' reading of what each capability did
# (scripts/capabilities-oracle.hs, built against the ghc-events of the same system):
# over the whole run (.caps) and over its middle third (.window.caps, the window on
# its first line).
#   scripts/regen-capability-fixtures.sh                      # the system's GHC (9.0.2)
#   scripts/regen-capability-fixtures.sh /opt/ghc-trixie      # GHC 9.6.6 (../shared/tools/ghc-chroot)
#   scripts/regen-capability-fixtures.sh /opt/ghc-sid         # GHC 9.10.3
# Each system needs ghc and libghc-ghc-events-dev.
set -euo pipefail
export TZ=UTC
cd "$(dirname "$0")/.."
root=${1:-}
chroot_tool=${GHC_CHROOT:-../shared/tools/ghc-chroot}
# Runs a shell command on the system the fixtures are made with, in its work directory.
on() {
  if [ -n "$root" ]; then "$chroot_tool" run "$root" "cd /w-capabilities && $1"; else (cd "$work" && bash -c "$1"); fi
}
if [ -n "$root" ]; then work=$root/w-capabilities; else work=$(mktemp -d); fi
rm -rf "$work" && mkdir -p "$work"
cp fixtures/programs/Workers.hs scripts/capabilities-oracle.hs "$work/"
version=$(on 'ghc --numeric-version')
out=fixtures/capabilities/ghc-$version
mkdir -p "$out" && rm -f "$out"/*
on 'ghc -O -outputdir o-oracle capabilities-oracle.hs -o oracle >/dev/null'
on 'ghc -O0 -rtsopts -eventlog -threaded -outputdir o -o Workers Workers.hs >/dev/null 2>&1'

# Tag, RTS options: -l's default classes (the scheduler, collections, sparks), and the
# scheduler's events alone (-l-as: every class off, then s; -ls is the defaults and s).
RUNS=(
  "N2|-N2 -l"
  "N4|-N4 -l"
  "N2-s|-N2 -l-as"
)
for run in "${RUNS[@]}"; do
  IFS='|' read -r tag rts <<<"$run"
  name=Workers-$tag
  on "./Workers +RTS $rts -s$name.s -ol$name.eventlog -RTS >/dev/null"
  on "./oracle $name.eventlog > $name.caps"
  on 'end=$(sed -n "s/^end\t//p" '"$name"'.caps); from=$((end / 3)); to=$((2 * end / 3));
      { printf "window\t%s\t%s\n" $from $to; ./oracle '"$name"'.eventlog $from $to; } > '"$name"'.window.caps'
  cp "$work/$name".{eventlog,s,caps,window.caps} "$out/"
done
rm -rf "$work"
echo "$out: $(ls "$out"/*.eventlog | wc -l) runs, $(du -sh "$out" | cut -f1)"
