#!/usr/bin/env bash
# The page's speed as a reader meets it, then the page's and --flame's own timings.
#
# First, with the shared generator and clock when ../shared/tools is beside the checkout
# (the profiles and the clock the issues are measured with): the page of
# `gen_hp.py 100000 25 60 11` (targets: at most 2 MiB, a load within 300 ms, a drag-zoom
# within 50 ms, median) and of `gen_hp.py 1000000 5 12 3` (its size must not grow with
# the samples), each opened in headless Chromium by `page-timing.js`, the page's own
# clock. Then tests/browser/bench-page.mjs: redraws, views and --flame against drawing
# the same file (docs/performance.md). Needs chromium and tests/browser's node modules
# (npm ci there). A benchmark, not a test: it prints and does not fail on a target.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin hpgraph --example gen-profile
shared=../shared/tools
if [ -f "$shared/gen_hp.py" ] && [ -f "$shared/page-timing.js" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    for args in "100000 25 60 11" "1000000 5 12 3"; do
        name=$(echo "$args" | tr ' ' '-')
        # shellcheck disable=SC2086
        python3 "$shared/gen_hp.py" $args > "$work/$name.hp"
        target/release/hpgraph "$work/$name.hp" -o "$work/$name.html" 2>/dev/null
        size=$(stat -c %s "$work/$name.html")
        timing=$(NODE_PATH=tests/browser/node_modules node "$shared/page-timing.js" "$work/$name.html" 3)
        awk -v a="$args" -v s="$size" -v t="$timing" \
            'BEGIN { printf "gen_hp.py %-16s page %5.2f MiB (target 2)  %s\n", a, s / 1048576, t }'
    done
else
    echo "no $shared beside the checkout: the shared clock's measures are skipped"
fi
node tests/browser/bench-page.mjs target/release/hpgraph target/release/examples/gen-profile
