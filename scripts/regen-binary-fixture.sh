#!/usr/bin/env bash
# fixtures/binary: a GHC 9.6.6 program built without -finfo-table-map (so its -hi bands
# are addresses) and run with +RTS -hi, for `--binary` (tests/it/binary.rs). What is kept
# of the program is its symbol table (objcopy --only-keep-debug, xz'd: 0.6 MB for 15 MB).
#
#   scripts/regen-binary-fixture.sh CHROOT    (CHROOT: ../shared/tools/ghc-chroot setup DIR trixie)
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:?give the GHC 9.6 chroot (../shared/tools/ghc-chroot setup DIR trixie)}
mkdir -p "$root/w/binary"
cp fixtures/programs/Run.hs "$root/w/binary/"
../shared/tools/ghc-chroot run "$root" 'cd /w/binary && ghc -O -v0 -rtsopts Run.hs -o run &&
  ./run 200000 +RTS -hi -l -i0.01 -olrun.eventlog -RTS >/dev/null &&
  objcopy --only-keep-debug run run.sym'
cp "$root/w/binary/run.eventlog" fixtures/binary/run-hi-ghc-9.6.6.eventlog
xz -9 -c "$root/w/binary/run.sym" > fixtures/binary/run-ghc-9.6.6.sym.xz
