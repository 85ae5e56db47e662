// One eventlog with a heap profile and the cost-centre profiler's samples of the same run
// (`+RTS -p -hc -l`), of three GHCs, in a real headless Chromium: the page shows the heap
// graph and, under it, the samples' strip, flame graph and table on the same clock. A
// stretch dragged across the strip is the heap graph's window, a window dragged on the heap
// graph weighs the samples' flame graph and table by the strip's stretches it touches, and
// each time the samples weighed are ghc-events' (the `.samples` files beside the fixtures),
// stack by stack.
//
//   node tests/browser/beside.mjs [HPGRAPH]      (default target/release/hpgraph)

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { check, finish, open, render, root, scratch, launch } from "./harness.mjs";

const work = scratch("beside");
const fixtures = join(root, "fixtures/prof");

/** ghc-events' reading: each sample's time (seconds) and stack, root first, `;`-joined. */
function readSamples(file) {
  const names = new Map(), stamped = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const f = line.split("\t");
    if (f[0] === "cc") names.set(f[1], `${f[2]}.${f[3]}`);
    if (f[0] === "sample") stamped.push([Number(f[1]) / 1e9, f[4].split(",").reverse().map((id) => names.get(id)).join(";")]);
  }
  return stamped;
}

/** Each stack's samples taken from `lo` up to `hi` (`hi` too when `last`). */
function countIn(stamped, lo, hi, last) {
  const counts = new Map();
  for (const [t, path] of stamped) if (t >= lo && (t < hi || (last && t <= hi))) counts.set(path, (counts.get(path) || 0) + 1);
  return counts;
}

/** The samples' table as the page shows it, every row unfolded: each row's path and own samples. */
async function readTable(page) {
  return page.evaluate(() => {
    window.hpgraph.samples().table.openAll();
    const table = document.getElementById("samples-costs"), heads = [...table.tHead.rows[0].cells].map((c) => c.textContent);
    const path = [], own = heads.indexOf("individual time");
    return [...table.tBodies[0].rows].filter((tr) => tr.dataset.row !== undefined).map((tr) => {
      path.length = Number(tr.dataset.depth);
      path.push(tr.cells[0].querySelector(".stack > span:last-child").textContent);
      return { path: path.join(";"), own: Number(tr.cells[own].dataset.value) };
    });
  });
}

/** Whether the page's table and flame graph weigh `want` (stack → samples); what differs. */
async function weighs(page, want) {
  const rows = await readTable(page), total = [...want.values()].reduce((a, b) => a + b, 0);
  const root = await page.evaluate(() => Number(document.querySelector("#samples-flame-svg g.frame").dataset.bytes));
  const off = [...want].filter(([path, n]) => !rows.some((r) => r.path === path && r.own === n));
  const extra = rows.filter((r) => r.own > 0 && !want.has(r.path));
  const says = `the flame graph weighs ${root}, ghc-events reads ${total}${off.length + extra.length ? "; differ: " + off.concat(extra.map((r) => [r.path, r.own])).slice(0, 2).map((w) => w.join(" ")).join("; ") : ""}`;
  return { ok: root === total && total > 0 && off.length === 0 && extra.length === 0, says };
}

/** Drags across the element `sel` from `a` to `b` (fractions of its width) with the mouse. */
async function drag(page, sel, a, b, y = 0.5) {
  const box = await page.locator(sel).boundingBox();
  await page.mouse.move(box.x + box.width * a, box.y + box.height * y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * (a + b) / 2, box.y + box.height * y, { steps: 4 });
  await page.mouse.move(box.x + box.width * b, box.y + box.height * y, { steps: 4 });
  await page.mouse.up();
}

const browser = await launch();
try {
  for (const ghc of ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"]) {
    const dir = join(fixtures, ghc), label = `${ghc} MapFib-samples-hc`, stamped = readSamples(join(dir, "MapFib-samples-hc.samples"));
    const { page, problems } = await open(browser, render(join(dir, "MapFib-samples-hc.eventlog"), join(work, `${ghc}.html`)));
    const shown = await page.evaluate(() => ({ heap: !document.querySelector(".figure").hidden && document.querySelectorAll("#chart svg path[data-band]").length, samples: !document.getElementById("samples").hidden }));
    check(shown.heap > 0 && shown.samples, `${label}: one page shows the heap graph (${shown.heap} bands) and the samples beside it`);
    let w = await weighs(page, countIn(stamped, -Infinity, Infinity, true));
    check(w.ok, `${label}: over the whole run ${w.says}`);

    // The strip's bars, each stretch stacked by the stacks with most samples in their
    // colours: each part is what ghc-events reads of that stack in that stretch, and a
    // stretch's parts add up to all it reads there.
    const bars = await page.evaluate(() => {
      // A row's stack root first, from the rows' callers (a label may hold a `/`).
      const S = window.hpgraph.data().cost_samples, T = S.tree, path = (r) => { const out = []; for (; r >= 0; r = T.rows[r][1]) out.unshift(S.frames[T.rows[r][0]]); return out.join(";"); };
      return { E: T.strip.edges, parts: [...document.querySelectorAll("#samples-strip rect.stretch")].map((r) => ({ b: +r.dataset.stretch, n: +r.dataset.samples, fill: r.getAttribute("fill"),
        stack: +r.dataset.row >= 0 ? path(+r.dataset.row) : null })) };
    });
    const last = bars.E.length - 2, inBin = (b) => [...countIn(stamped, bars.E[b], bars.E[b + 1], b === last)];
    const wrongParts = bars.parts.filter((p) => p.stack !== null && (inBin(p.b).find(([path]) => path === p.stack) || [0, 0])[1] !== p.n);
    const sums = new Map();
    bars.parts.forEach((p) => sums.set(p.b, (sums.get(p.b) || 0) + p.n));
    const wrongSums = [...sums].filter(([b, n]) => inBin(b).reduce((a, c) => a + c[1], 0) !== n);
    const colours = new Set(bars.parts.filter((p) => p.stack !== null).map((p) => p.fill));
    check(wrongParts.length === 0 && wrongSums.length === 0 && colours.size >= 2 && !colours.has("#777"),
      `${label}: the strip's ${bars.parts.length} parts in ${sums.size} stretches are ghc-events' samples of their stacks there, in ${colours.size} colours (${wrongParts.slice(0, 2).map((p) => p.b + " " + p.stack + " " + p.n).join("; ")}${wrongSums.slice(0, 2).join("; ")})`);

    // A stretch dragged across the strip: the heap graph's window is its edges, the heap's
    // table ranks that window, and the samples weighed are those ghc-events reads in it.
    await drag(page, "#samples-strip", 0.35, 0.65, 0.3);
    const s = await page.evaluate(() => {
      const d = document.getElementById("samples-strip").dataset, E = window.hpgraph.data().cost_samples.tree.strip.edges, t = document.getElementById("summary");
      return { b0: +d.from, b1: +d.to, E: E, view: window.hpgraph.window(), table: [+t.dataset.from, +t.dataset.to] };
    });
    const [lo, hi] = [s.E[s.b0], s.E[s.b1 + 1]];
    check(s.b1 > s.b0 && s.view[0] === lo && s.view[1] === hi && s.table[0] === lo && s.table[1] === hi,
      `${label}: stretches ${s.b0}-${s.b1} dragged on the strip are the heap graph's window ${s.view} and its table's ${s.table} (the stretches' edges ${lo} to ${hi})`);
    w = await weighs(page, countIn(stamped, lo, hi, s.b1 === s.E.length - 2));
    check(w.ok, `${label}: the stretch from ${lo} to ${hi}: ${w.says}`);

    // A window dragged on the heap graph: the samples' stretch covers it, no further than
    // the strip's stretches it touches, and weighs what ghc-events reads there.
    await page.dblclick("#chart svg");
    const plot = await page.evaluate(() => { const P = window.hpgraph.data().plot, r = document.querySelector("#chart svg").getBoundingClientRect(), vb = document.querySelector("#chart svg").viewBox.baseVal; return { x: P.x / vb.width, w: P.w / vb.width, y: (P.y + P.h / 2) / vb.height, bin: (P.xr) }; });
    await drag(page, "#chart svg", plot.x + plot.w * 0.2, plot.x + plot.w * 0.55, plot.y);
    const z = await page.evaluate(() => { const d = document.getElementById("samples").dataset; return { view: window.hpgraph.window(), from: +d.from, to: +d.to, at: window.hpgraph.samples().at, E: window.hpgraph.data().cost_samples.tree.strip.edges }; });
    const bin = z.E[1] - z.E[0], [a, b] = [Math.max(z.view[0], z.E[0]), Math.min(z.view[1], z.E[z.E.length - 1])];
    check(z.view[1] > z.view[0] && z.from <= a && z.to >= b && a - z.from < bin * 1.0001 && z.to - b < bin * 1.0001,
      `${label}: the heap graph's window ${z.view.map((t) => t.toFixed(4))} is the samples' stretch ${z.from.toFixed(4)} to ${z.to.toFixed(4)} (stretches of ${bin.toFixed(4)} s)`);
    const shade = await page.evaluate(() => document.getElementById("samples-strip").dataset);
    check(+shade.from === z.at[0] && +shade.to === z.at[1], `${label}: the strip shades the stretches ${shade.from}-${shade.to} the window touches (${z.at})`);
    w = await weighs(page, countIn(stamped, z.from, z.to, z.at[1] === z.E.length - 2));
    check(w.ok, `${label}: the heap graph's window: ${w.says}`);
    const drawn = await page.evaluate(() => window.hpgraph.samplesInverted(true));
    const inverted = await page.evaluate(() => Number(document.querySelector("#samples-flame-svg g.frame").dataset.bytes));
    check(drawn > 1 && inverted === [...countIn(stamped, z.from, z.to, z.at[1] === z.E.length - 2).values()].reduce((p, q) => p + q, 0),
      `${label}: inverted, the samples' flame graph weighs the same ${inverted} samples in ${drawn} frames`);

    // A double-click on the heap graph: the whole run on both.
    await page.dblclick("#chart svg");
    w = await weighs(page, countIn(stamped, -Infinity, Infinity, true));
    const cleared = await page.evaluate(() => document.getElementById("samples-strip").dataset.from === undefined);
    check(w.ok && cleared, `${label}: a double-click on the heap graph gives the whole run again, the strip unshaded: ${w.says}`);
    check(problems.length === 0, `${label}: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }
  // A heap eventlog without samples has no such part.
  const { page } = await open(browser, render(join(root, "fixtures/eventlog/Leak-hc.eventlog"), join(work, "Leak-hc.html")));
  check(await page.evaluate(() => !document.getElementById("samples") && !window.hpgraph.samples()), "an eventlog without samples: no samples' part");
  await page.close();
} finally {
  await browser.close();
}
finish("the heap graph and the samples of one eventlog share their window, and weigh what ghc-events reads");
