// Every browser suite in one Chromium: each suite's checks as when it runs alone (its
// own pages, scratch folder and closing line), the browser started once. A suite that
// fails, or throws, fails the run; the rest still run, so one run tells all.
//
//   node tests/browser/all.mjs [HPGRAPH [PROFILE.hp...]]   (default target/release/hpgraph)
//   SUITES="html costs" node tests/browser/all.mjs ...     (only those)
//   SKIP="textboxes" node tests/browser/all.mjs ...        (all but those)
//
// The profiles after HPGRAPH go to textboxes.mjs, as when it runs alone.

import { chromium } from "playwright-core";
import { chromiumPath } from "./harness.mjs";

const SUITES = [
  ["html", "the HTML page: hover, hide, zoom, reset, marks"],
  ["hostile", "hostile strings in every field of a profile run no script in the page, served page or SVG"],
  ["compare", "the page of --compare: one time in both runs, the filter box"],
  ["live", "the live page of --serve, while a profile is written"],
  ["hunt", "the page for finding leaks: a window re-ranks the key and table, filter, views, flame graph"],
  ["costs", "a time and allocation profile's page: GHC's report and ghc-events' samples, the measure switch"],
  ["beside", "the heap graph and the samples of one eventlog on one window"],
  ["gcstrip", "the GC strip: each bar the share of its time in GC as ghc-events reads the collections"],
  ["rates", "the allocation rate in a panel of its own: B/s labels over its peak, clear of every text; -s's total"],
  ["members", "a root and a retainer profile's members, each a view of its sets; ticky counters sorted"],
  ["table", "the page's table is --summary's, figure for figure, for random windows of real profiles"],
  ["flamelabels", "flame graphs of deep reports and stacks named at the default size and at 8.5 cm"],
  ["textboxes", "modern figures at sizes from 6 cm x 4 cm to 30 cm x 20 cm: text, ticks, keys"],
  ["columns", "real profiles alone and compared at a column's width: text apart and inside, fills ΔE 12 apart, the page's key"],
];

const words = (v) => (v || "").split(/\s+/).filter(Boolean);
const only = words(process.env.SUITES), skip = words(process.env.SKIP);
const chosen = SUITES.filter(([name]) => (!only.length || only.includes(name)) && !skip.includes(name));
globalThis.hpgraphSharedBrowser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
globalThis.hpgraphSuiteFailures = [];
const outcomes = [];
try {
  for (const [name, what] of chosen) {
    console.log(`== ${name}.mjs: ${what}`);
    const started = Date.now();
    const before = globalThis.hpgraphSuiteFailures.length;
    let failed;
    try {
      await import(`./${name}.mjs`);
      failed = globalThis.hpgraphSuiteFailures.length === before ? 1 : globalThis.hpgraphSuiteFailures.at(-1);
      if (globalThis.hpgraphSuiteFailures.length === before) console.log(`FAIL ${name}.mjs ended without its closing line`);
    } catch (e) {
      console.log(`FAIL ${name}.mjs threw: ${e && e.stack ? e.stack : e}`);
      failed = 1;
    }
    outcomes.push([name, failed, (Date.now() - started) / 1000]);
  }
} finally {
  await globalThis.hpgraphSharedBrowser.close();
}
console.log("== browser suites");
for (const [name, failed, secs] of outcomes) {
  console.log(`${failed ? "FAIL" : "ok  "} ${name}.mjs  ${secs.toFixed(1)} s${failed ? `  ${failed} check(s) failed` : ""}`);
}
const bad = outcomes.filter(([, failed]) => failed).length;
console.log(`browser suites: ${outcomes.length - bad} passed, ${bad} failed`);
process.exit(bad ? 1 : 0);
