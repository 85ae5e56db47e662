#!/usr/bin/env bash
# The page's load and redraw times in headless Chromium on the 100,000-sample x 25-band
# profile, and --flame on a census of 100,000 distinct stacks; docs/performance.md
# records them. Needs chromium and tests/browser's node modules (npm ci there).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin hpgraph --example gen-profile
node tests/browser/bench-page.mjs target/release/hpgraph target/release/examples/gen-profile
