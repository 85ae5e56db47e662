// The GC strip, read as a reader reads it, against ghc-events' reading of the same
// eventlogs (the `.reference` files beside the corpus): on the page, each bar's height is
// the share of its stretch's time the runtime spent collecting, as the reference's
// `starting GC`/`finished GC` events give it, dark where a major collection (generation
// above 0) falls; in the picture at a column's width and on the page, the strip has a row
// of its own under the graph: no band or line reaches into it. Each capability's strip
// above it, on runs of a concurrent program on three GHCs against ghc-events' sums of the
// same runs (`.caps`, `.window.caps`: scripts/capabilities-oracle.hs): its bars' shares,
// times the columns' time, add up to the capability's time running and collecting over
// the whole run and, zoomed to the run's middle third, over that; the strips lie in the
// strip row, capability 0 the highest, on the chart's time axis.
//
//   node tests/browser/gcstrip.mjs [HPGRAPH]      (default target/release/hpgraph)

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { check, finish, open, render, root, scratch, launch } from "./harness.mjs";

const work = scratch("gcstrip");
const corpus = join(root, "fixtures/corpus-eventlog");

/** The collections ghc-events reads: [start, end] in seconds and the generation collected. */
function collections(reference) {
  const started = new Map(), gcs = [];
  for (const line of readFileSync(reference, "utf8").split("\n")) {
    const m = line.match(/^\s*(\d+): cap (\d+): (starting GC|finished GC|GC stats for heap capset \d+: generation (\d+))/);
    if (!m) continue;
    const t = Number(m[1]) / 1e9;
    if (m[3] === "starting GC") started.set(m[2], t);
    else if (m[3] === "finished GC" && started.has(m[2])) { gcs.push([started.get(m[2]), t, 0]); started.delete(m[2]); }
    else if (m[4] !== undefined && gcs.length) gcs[gcs.length - 1][2] = Number(m[4]);
  }
  return gcs;
}

/** The share of [a, b] the collections take, and whether a major one falls in it. */
function share(gcs, a, b) {
  let busy = 0, major = false;
  for (const [s, e, g] of gcs) {
    const o = Math.min(e, b) - Math.max(s, a);
    if (s <= b && e >= a) { busy += Math.max(0, o); major ||= g > 0; }
  }
  return [Math.min(1, busy / (b - a)), major];
}

const browser = await launch();
try {
  for (const name of ["ghc-9.2-events", "sleep.hd", "hello-ghc-8.2.2"]) {
    const log = join(corpus, `${name}.eventlog`), gcs = collections(`${log}.reference`);
    check(gcs.length > 0, `${name}: ghc-events reads ${gcs.length} collections`);
    const { page, problems } = await open(browser, render(log, join(work, `${name}.html`), "--heap-lines"));
    const seen = await page.evaluate(() => {
      // The strip's row: under the graph and the rate's panel, above the time axis.
      const P = window.hpgraph.data().plot, graph = P.y + P.h, bottom = graph + (P.rate_gap || 0) + (P.rate || 0);
      const bars = [...document.querySelectorAll("#chart .gc-strip rect.gc")].map((r) => ({
        x: +r.getAttribute("x"), w: +r.getAttribute("width"), y: +r.getAttribute("y"), h: +r.getAttribute("height"), major: r.classList.contains("major") }));
      const lowest = (q) => Math.max(-Infinity, ...[...document.querySelectorAll(q)].map((p) => { const b = p.getBBox(); return b.y + b.height; }));
      return { P, graph, bottom, bars, lowestInk: lowest("#chart path[data-band], #chart path.heap-line:not(.rate)"), lowestRate: lowest("#chart path.heap-line.rate") };
    });
    const { P, bottom, bars } = seen, H = P.strip - P.caps - 2;
    check(P.strip > 0 && bars.length > 0, `${name}: the page draws ${bars.length} strip bars in a row of ${P.strip}`);
    check(bars.every((b) => b.y >= bottom && b.y + b.h <= bottom + P.strip + 1e-6) && seen.lowestInk <= seen.graph + 0.5 && seen.lowestRate <= bottom + 0.5,
      `${name}: the strip lies in its own row under the graph and the rate's panel (bands and lines end at ${seen.lowestInk.toFixed(2)}, the graph at ${seen.graph.toFixed(2)}; the rate at ${seen.lowestRate.toFixed(2)}, its panel at ${bottom.toFixed(2)})`);
    // Each bar against the reference's share of its stretch: merged columns differ by
    // under a twentieth of a unit, so the tallest may pass the stretch's mean by that; the
    // page writes coordinates to a hundredth of a unit, which moves a share by as much.
    const time = (x) => P.t0 + (x - P.x) / P.w * P.xr, slack = 0.01 / H + 0.01 / Math.max(1, Math.min(...bars.map((b) => b.w)));
    const wrong = bars.filter((b) => {
      const [s, major] = share(gcs, time(b.x), time(b.x + b.w)), got = b.h / H;
      return got < s - slack || got > s + 0.05 / H + slack || major !== b.major;
    });
    check(wrong.length === 0, `${name}: each bar is as tall as the share of its time in GC, dark for a major collection (${wrong.slice(0, 2).map((b) => JSON.stringify(b)).join("; ")})`);
    const taller = bars.filter((b) => bars.some((c) => share(gcs, time(c.x), time(c.x + c.w))[0] > share(gcs, time(b.x), time(b.x + b.w))[0] + 0.05 / H + 2 * slack && c.h < b.h - slack * H));
    check(taller.length === 0, `${name}: a bar with more time in GC is never shorter than one with less`);
    check(problems.length === 0, `${name}: no console error and no request (${problems.join("; ")})`);
    await page.close();

    // The picture at a column's width: its strip's bars (the two greys, filled) under every band and line.
    const svg = render(log, join(work, `${name}.svg`), "--heap-lines", "--style", "modern", "--size", "8.5cmx5.5cm");
    const doc = await browser.newPage();
    await doc.goto(pathToFileURL(svg).href);
    const picture = await doc.evaluate(() => {
      // (The capabilities' strips, above the collections', are apart: titled by their capability.)
      const grey = new Set(["#4d4d4d", "#a6a6a6"]), strip = (p) => /^capability \d+$/.test(p.querySelector("title")?.textContent || "");
      const paths = [...document.querySelectorAll("path")].filter((p) => !strip(p));
      const bars = paths.filter((p) => grey.has(p.getAttribute("fill"))).map((p) => p.getBBox());
      const inked = paths.filter((p) => !grey.has(p.getAttribute("fill")) && (p.getAttribute("fill") || "none") !== "white" && p.getAttribute("d").length > 40).map((p) => p.getBBox());
      return { bars: bars.map((b) => b.y), lowest: Math.max(-Infinity, ...inked.filter((b) => b.width > 20 && b.height > 0).map((b) => b.y + b.height)) };
    });
    check(picture.bars.length > 0 && picture.bars.every((y) => y >= picture.lowest - 1e-6) || picture.bars.length === 0 && gcs.every((g) => g[1] - g[0] === 0),
      `${name} at 8.5 cm: the strip's ${picture.bars.length} bars start under every band and line (lowest ink ${picture.lowest.toFixed(2)})`);
    await doc.close();
  }

  // Each capability's strip against ghc-events' sums of its stretches.
  const caps = (file) => {
    const o = { window: null, caps: new Map() };
    for (const f of readFileSync(file, "utf8").split("\n").map((l) => l.split("\t"))) {
      if (f[0] === "window") o.window = [Number(f[1]) / 1e9, Number(f[2]) / 1e9];
      if (f[0] === "cap") o.caps.set(Number(f[1]), [Number(f[2]) / 1e9, Number(f[3]) / 1e9]);
    }
    return o;
  };
  for (const ghc of ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"]) {
    const log = join(root, "fixtures/capabilities", ghc, "Workers-N4.eventlog"), name = `${ghc}/Workers-N4`;
    const { page, problems } = await open(browser, render(log, join(work, `${ghc}-caps.html`)));
    for (const reading of ["caps", "window.caps"]) {
      const want = caps(log.replace(/eventlog$/, reading));
      const seen = await page.evaluate((w) => {
        if (w) window.hpgraph.zoom(w[0], w[1]);
        // The page's columns: one a unit of the chart's width (page.js drawStrip).
        const P = window.hpgraph.data().plot, [a, b] = window.hpgraph.window(), axis = P.y + P.h + (P.rate_gap || 0) + (P.rate || 0) + P.strip, n = Math.max(1, Math.floor(P.w));
        const got = {};
        for (const r of document.querySelectorAll("#chart rect.capability")) {
          const c = r.dataset.capability, kind = r.classList.contains("running") ? 0 : 1, x = +r.getAttribute("x"), y = +r.getAttribute("y");
          got[c] ||= { time: [0, 0], x: [Infinity, -Infinity], y: [Infinity, -Infinity] };
          got[c].time[kind] += Number(r.dataset.share) * (b - a) / n;
          got[c].x = [Math.min(got[c].x[0], x), Math.max(got[c].x[1], x + +r.getAttribute("width"))];
          got[c].y = [Math.min(got[c].y[0], y), Math.max(got[c].y[1], y + +r.getAttribute("height"))];
        }
        return { got, a, b, P, axis };
      }, want.window);
      const wrong = [...want.caps].filter(([c, [running, gc]]) => {
        const g = seen.got[c];
        return !g || Math.abs(g.time[0] - running) > 1e-6 || Math.abs(g.time[1] - gc) > 1e-6;
      });
      check(want.caps.size === 4 && wrong.length === 0,
        `${name} (${reading}): each capability's strip adds up to its time running and collecting as ghc-events sums it (${wrong.slice(0, 2).map(([c, t]) => `${c}: ${JSON.stringify(seen.got[c] && seen.got[c].time)} vs ${t}`).join("; ")})`);
      const { P } = seen, rows = [...want.caps.keys()].map((c) => seen.got[c]);
      check(rows.every((r, k) => r.x[0] >= P.x - 1e-6 && r.x[1] <= P.x + P.w + 1e-6 && r.y[0] >= seen.axis - P.strip - 1e-6 && r.y[1] <= seen.axis && (k === 0 || r.y[0] >= rows[k - 1].y[1] - 1e-6)),
        `${name} (${reading}): the strips lie on the chart's time axis, in the strip row, capability 0 the highest`);
    }
    check(problems.length === 0, `${name}: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }
} finally {
  await browser.close();
}
finish("the GC strip and the capabilities' strips: shares of time as ghc-events reads them, in a row of their own");
