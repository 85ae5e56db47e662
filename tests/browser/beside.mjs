// One eventlog with a heap profile and the cost-centre profiler's samples of the same run
// (`+RTS -p -hc -l`), of three GHCs, in a real headless Chromium: the page shows the heap
// graph with the samples' row on its time axis and, under it, the samples' flame graph and
// table on the same clock. A window dragged on the heap graph weighs the samples' flame
// graph and table by the stretches it touches, and each time the samples weighed (and the
// row's bars) are ghc-events' (the `.samples` files beside the fixtures), stack by stack.
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

    // The samples' panel under the heap graph, a row of the chart on its time axis: each
    // stretch's bar stacked by the cost centres its key names (a sample's innermost frame)
    // and the rest; each part is what ghc-events reads of them in that stretch, at the x the
    // chart's time axis puts the stretch's start (within 3 px), unzoomed and zoomed. The
    // chart's window spans the samples taken before its first census.
    const first = Math.min(...stamped.map((p) => p[0]));
    const whole = await page.evaluate(() => window.hpgraph.window());
    check(whole[0] <= first + 1e-9, `${label}: the chart begins at ${whole[0]}, by the first sample (${first}), before the first census`);
    const panel = async (why) => {
      const bars = await page.evaluate(() => {
        const svg = document.querySelector("#chart svg"), centre = (e) => { const r = e.getBoundingClientRect(); return r.left + r.width / 2; };
        const seconds = (t) => (t.endsWith(" ms") ? parseFloat(t) / 1e3 : t.endsWith(" s") ? parseFloat(t) : NaN);
        const ticks = [...svg.querySelectorAll("#layer text")].map((e) => [seconds(e.textContent), centre(e)]).filter((p) => isFinite(p[0]));
        return { ticks, parts: [...svg.querySelectorAll("rect.sample")].map((r) => ({ name: r.querySelector("title").textContent.split(": ")[0], n: +r.dataset.samples,
          from: +r.dataset.from, to: +r.dataset.to, left: r.getBoundingClientRect().left, fill: r.getAttribute("fill") })), window: window.hpgraph.window() };
      });
      const named = new Set(bars.parts.map((p) => p.name).filter((n) => n !== "the rest")), ends = bars.parts.map((p) => p.to), end = Math.max(...ends);
      const running = (path) => { const inner = path.split(";").pop(); return named.has(inner) ? inner : "the rest"; };
      const inStretch = (p) => stamped.filter(([t]) => t >= p.from && (t < p.to || (p.to === end && t <= p.to)));
      const wrong = bars.parts.filter((p) => inStretch(p).filter(([, path]) => running(path) === p.name).length !== p.n);
      const [t0, x0] = bars.ticks[0], [t1, x1] = bars.ticks[bars.ticks.length - 1], at = (t) => x0 + (t - t0) / (t1 - t0) * (x1 - x0);
      const off = bars.parts.map((p) => Math.abs(p.left - at(Math.max(p.from, bars.window[0])))).reduce((m, d) => Math.max(m, d), 0);
      const colours = new Set(bars.parts.filter((p) => p.name !== "the rest").map((p) => p.fill));
      check(bars.parts.length > 0 && wrong.length === 0 && colours.size >= 2 && bars.ticks.length >= 2 && off <= 3,
        `${label} ${why}: the samples' row has ${bars.parts.length} parts in ${colours.size} colours, each ghc-events' samples there (${wrong.slice(0, 2).map((p) => p.name + " " + p.from + " " + p.n).join("; ")}), at most ${off.toFixed(2)} px from where the time axis puts their stretch`);
    };
    await panel("unzoomed");
    // The cost centres the row names keep their colours in the samples' flame graph.
    const paints = await page.evaluate(() => {
      const row = new Map([...document.querySelectorAll("#chart svg rect.sample")].map((r) => [r.querySelector("title").textContent.split(": ")[0], r.getAttribute("fill")]));
      return [...document.querySelectorAll("#samples-flame-svg g.frame")].map((g) => [g.dataset.stack.split("/")[0], g.querySelector("rect").getAttribute("fill"), row.get(g.dataset.stack.split("/")[0])])
        .filter((f) => f[2] !== undefined && f[0] !== "the rest");
    });
    const unlike = paints.filter((f) => f[1] !== f[2]);
    check(paints.length > 0 && unlike.length === 0, `${label}: ${paints.length} flame frames of the row's cost centres in the row's colours (${unlike.slice(0, 2).join("; ")})`);
    await page.evaluate(([a, b]) => window.hpgraph.zoom(a + (b - a) * 0.3, a + (b - a) * 0.6), whole);
    await panel("zoomed");
    await page.evaluate(() => window.hpgraph.zoom(null));

    // A window dragged on the heap graph: the samples' stretch covers it, no further than
    // the strip's stretches it touches, and weighs what ghc-events reads there.
    await page.dblclick("#chart svg");
    const plot = await page.evaluate(() => { const P = window.hpgraph.data().plot, r = document.querySelector("#chart svg").getBoundingClientRect(), vb = document.querySelector("#chart svg").viewBox.baseVal; return { x: P.x / vb.width, w: P.w / vb.width, y: (P.y + P.h / 2) / vb.height, bin: (P.xr) }; });
    await drag(page, "#chart svg", plot.x + plot.w * 0.2, plot.x + plot.w * 0.55, plot.y);
    const z = await page.evaluate(() => { const d = document.getElementById("samples").dataset; return { view: window.hpgraph.window(), from: +d.from, to: +d.to, at: window.hpgraph.samples().at, E: window.hpgraph.data().cost_samples.tree.strip.edges }; });
    const bin = z.E[1] - z.E[0], [a, b] = [Math.max(z.view[0], z.E[0]), Math.min(z.view[1], z.E[z.E.length - 1])];
    check(z.view[1] > z.view[0] && z.from <= a && z.to >= b && a - z.from < bin * 1.0001 && z.to - b < bin * 1.0001,
      `${label}: the heap graph's window ${z.view.map((t) => t.toFixed(4))} is the samples' stretch ${z.from.toFixed(4)} to ${z.to.toFixed(4)} (stretches of ${bin.toFixed(4)} s)`);
    w = await weighs(page, countIn(stamped, z.from, z.to, z.at[1] === z.E.length - 2));
    check(w.ok, `${label}: the heap graph's window: ${w.says}`);
    const drawn = await page.evaluate(() => window.hpgraph.samplesInverted(true));
    const inverted = await page.evaluate(() => Number(document.querySelector("#samples-flame-svg g.frame").dataset.bytes));
    check(drawn > 1 && inverted === [...countIn(stamped, z.from, z.to, z.at[1] === z.E.length - 2).values()].reduce((p, q) => p + q, 0),
      `${label}: inverted, the samples' flame graph weighs the same ${inverted} samples in ${drawn} frames`);

    // A double-click on the heap graph: the whole run on both.
    await page.dblclick("#chart svg");
    w = await weighs(page, countIn(stamped, -Infinity, Infinity, true));
    check(w.ok, `${label}: a double-click on the heap graph gives the whole run again: ${w.says}`);
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
