// The page's timings in headless Chromium, and the flame graph's on the command line:
// what docs/performance.md records. Not a test: it prints, for each, the time and the
// target, and how many times within the target it is (the ratio).
//
//   node tests/browser/bench-page.mjs [HPGRAPH] [GEN-PROFILE]
//   (scripts/bench-page.sh builds both and runs this)

import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, statSync, rmSync, createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(new URL("../..", import.meta.url).pathname);
const hpgraph = resolve(process.argv[2] || join(root, "target/release/hpgraph"));
const gen = resolve(process.argv[3] || join(root, "target/release/examples/gen-profile"));
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const work = mkdtempSync(join(tmpdir(), "hpgraph-bench-page-"));
const RUNS = 7;

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[(s.length - 1) >> 1]; };
const rows = [];
function report(what, ms, target) {
  rows.push([what, ms, target]);
  console.log(`${what.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms   target ${String(target).padStart(5)} ms   ${(target / ms).toFixed(1).padStart(5)}x within`);
}

// The long profile: 100,000 samples x 25 bands.
const long = join(work, "long.hp");
writeFileSync(long, execFileSync(gen, ["100000", "25", "25", "2"], { maxBuffer: 1 << 30 }));
execFileSync(hpgraph, [long, "-o", join(work, "long.html")]);
const pageSize = statSync(join(work, "long.html")).size;
console.log(`long.hp: ${(statSync(long).size / 1e6).toFixed(0)} MB; page ${(pageSize / 1048576).toFixed(2)} MiB, target 2 MiB, ${(2 * 1048576 / pageSize).toFixed(1)}x within`);

const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
try {
  const loads = [], drags = [], zooms = [], views = [], filters = [], flames = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(pathToFileURL(join(work, "long.html")).href);
    await page.waitForFunction(() => window.hpgraph && window.hpgraph.data());
    // From the start of navigation to the page drawn by its script.
    loads.push(await page.evaluate(() => window.hpgraph.readyAt()));
    // Each change timed from the call to the second animation frame after it (the
    // first the change is painted in).
    const timed = (f, arg) => page.evaluate(([f, arg]) => new Promise((done) => {
      const t0 = performance.now();
      window.hpgraph[f].apply(null, arg);
      requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
    }), [f, arg]);
    const [a, b] = await page.evaluate(() => { const T = window.hpgraph.data().times; return [T[0], T[T.length - 1]]; });
    // A drag-zoom as a reader makes it: timed from the mouse's release.
    const box = await page.locator("#chart svg").boundingBox();
    const y = box.y + box.height * 0.5;
    await page.mouse.move(box.x + box.width * 0.4, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.45, y, { steps: 3 });
    await page.evaluate(() => {
      window.__released = null;
      window.addEventListener("mouseup", () => {
        const t0 = performance.now();
        requestAnimationFrame(() => requestAnimationFrame(() => { window.__released = performance.now() - t0; }));
      }, { capture: true, once: true });
    });
    await page.mouse.up();
    await page.waitForFunction(() => window.__released !== null);
    drags.push(await page.evaluate(() => window.__released));
    zooms.push(await timed("zoom", [a + (b - a) * 0.4, a + (b - a) * 0.45]));
    views.push(await timed("view", ["share"]));
    views.push(await timed("view", ["lines"]));
    filters.push(await timed("filter", ["1[0-9]"]));
    await timed("filter", [""]);
    await timed("view", ["stacked"]);
    zooms.push(await timed("zoom", [null]));
    flames.push(await timed("flame", [(a + b) / 2]));
    await page.close();
  }
  report("page load, 100,000 samples x 25 bands", median(loads), 300);
  report("drag-zoom, release to the second frame", median(drags), 50);
  report("zoom or reset redraw", median(zooms), 50);
  report("view switch redraw", median(views), 100);
  report("filter redraw", median(filters), 100);
  report("flame graph of a census, in the page", median(flames), 100);
} finally {
  await browser.close();
}

// The flame graph of a census of 100,000 distinct stacks, on the command line.
const many = join(work, "stacks.hp");
const out = createWriteStream(many);
out.write('JOB "stacks"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0\n');
for (let i = 0; i < 100000; i++) out.write(`(${i})leaf${i}/f${i % 997}/g${i % 31}/main/Main.CAF\t${8 * (1 + (i * 7919) % 1000)}\n`);
out.write("END_SAMPLE 0\n");
await new Promise((r) => out.end(r));
const timeOf = (args) => {
  const times = [];
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    execFileSync(hpgraph, args);
    times.push(performance.now() - t0);
  }
  return median(times);
};
// The reference: the same file drawn as a graph over time, in the same run.
const graph = timeOf([many, "-o", join(work, "graph.svg")]);
console.log(`reference: the graph of the same file as SVG, ${graph.toFixed(1)} ms`);
for (const fmt of ["svg", "pdf", "png", "ps"]) {
  const ms = timeOf(["--flame", many, "-o", join(work, `stacks.${fmt}`)]);
  report(`--flame, 100,000 distinct stacks, ${fmt} (${(statSync(join(work, `stacks.${fmt}`)).size / 1e3).toFixed(0)} kB)`, ms, 1000);
  console.log(`  ${(ms / graph).toFixed(2)}x the graph's time`);
}
rmSync(work, { recursive: true, force: true });
