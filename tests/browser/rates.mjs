// The runtime's rate in a panel of its own, read as a reader reads it: for every fixture
// eventlog of three GHCs (each heap profile with --heap-lines, and plain -l runs that have
// none) at a grid of sizes from 6 cm to 30 cm, Chromium measures the SVG. The allocation rate's
// line (its orange) lies in a panel under the heap graph whose axis labels say bytes per
// second and reach over the line's highest point; nothing of the heap graph (bands,
// lines, envelopes) comes down into it; no text overlaps another, a line (the browser's
// own hit test of each stroke), an envelope or the GC strip's bars: a line's name that
// finds no clear place in the graph is in the lines' key above the rate panel. No two
// entries of the key beside the graph read alike. For the plain runs (a heap profile's rate spans its censuses, not the
// whole run), the rate read back through the labels (values
// from the panel's ticks, times from the time axis's) adds up to what the run's own
// `+RTS -s` says it allocated. On the page, the panel is under the graph and its axis
// follows the zoom: its labels still reach over the window's peak, and no further than
// the next round value.
//
//   node tests/browser/rates.mjs [HPGRAPH]   (default target/release/hpgraph)

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { check, finish, open, render, root, scratch, launch } from "./harness.mjs";

const work = scratch("rates");
const inputs = [];
const every = (f) => f.endsWith(".eventlog");
for (const [dir, keep] of [["fixtures/eventlog", every], ["fixtures/eventlog-9.6", every], ["fixtures/eventlog-9.10", every], ["fixtures/stats/ghc-9.0.2", every]]) {
  if (existsSync(join(root, dir))) inputs.push(...readdirSync(join(root, dir)).filter(keep).sort().map((f) => join(root, dir, f)));
}
const sizes = ["6cmx4cm", "8.5cmx5.5cm", "12cmx8cm", "17cmx6cm", "30cmx20cm", "6cmx20cm", "30cmx4cm"];
const RATE = "#cc5400";

// "2.5 GB/s" in bytes per second; "0.25 s" in seconds.
const UNITS = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 };
const rate = (label) => { const m = /^([\d.]+) (\w+)\/s$/.exec(label); return m && UNITS[m[2]] !== undefined ? Number(m[1]) * UNITS[m[2]] : null; };
const seconds = (label) => { const m = /^([\d.]+) s$/.exec(label); return m ? Number(m[1]) : null; };
// What `+RTS -s` says the run allocated.
const allocated = (s) => { const m = /([\d,]+) bytes allocated in the heap/.exec(readFileSync(s, "utf8")); return m ? Number(m[1].replaceAll(",", "")) : null; };

const browser = await launch();
let figures = 0;
try {
  const page = await browser.newPage();
  for (const [n, input] of inputs.entries()) {
    const name = input.split("/").slice(-2).join("/");
    const s = input.replace(/\.eventlog$/, ".s");
    for (const size of sizes) {
      const svg = render(input, join(work, `${n}-${size}.svg`), "--style", "modern", "--heap-lines", "--size", size);
      await page.goto(pathToFileURL(svg).href);
      const r = await page.evaluate((RATE) => {
        const svg = document.querySelector("svg"), vb = svg.viewBox.baseVal;
        const texts = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim() !== "").map((t) => {
          const b = t.getBBox(), fs = Number(t.getAttribute("font-size")), y = Number(t.getAttribute("y"));
          return { text: t.textContent, x0: b.x, y0: y - 0.72 * fs, x1: b.x + b.width, y1: y + 0.21 * fs, mid: y - 0.36 * fs, cx: b.x + b.width / 2 };
        });
        const points = (p) => (p.getAttribute("d").match(/-?[\d.]+,-?[\d.]+/g) || []).map((q) => q.split(",").map(Number));
        // The strips' bars: the collections' greys, and the capabilities' (titled by their capability).
        const strip = (p) => /^capability \d+$/.test((p.querySelector("title") || {}).textContent || "");
        const paths = [...svg.querySelectorAll("path")];
        const line = paths.find((p) => p.getAttribute("stroke") === RATE && (p.getAttribute("fill") || "none") === "none");
        const grey = new Set(["#4d4d4d", "#a6a6a6"]);
        const bars = paths.filter((p) => grey.has(p.getAttribute("fill")) || strip(p)).map((p) => { const b = p.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; });
        // Short horizontal lines: the y axes' ticks.
        const ticks = paths.map(points).filter((q) => q.length === 2 && Math.abs(q[0][1] - q[1][1]) < 0.01 && Math.abs(Math.abs(q[0][0] - q[1][0]) - 4) < 0.01).map((q) => q[0][1]);
        // The heap graph's ink: anything coloured but the rate line and the strip's greys, left of the key.
        const right = line ? Math.max(...points(line).map((q) => q[0])) : 0;
        const heap = paths.filter((p) => p !== line && !grey.has(p.getAttribute("fill")) && !strip(p) && (((p.getAttribute("fill") || "none") !== "none" && p.getAttribute("fill") !== "white")
          || !["black", "none", null].includes(p.getAttribute("stroke")))).map((p) => p.getBBox()).filter((b) => b.x < right - 1 && b.width > 20);
        // Each text against the ink, as the browser hit-tests it on a grid of points a
        // half point apart: the runtime's lines' strokes (the rate's too), their envelopes' fills, the strip's bars.
        const title = (p) => (p.querySelector("title") || {}).textContent || "";
        const strokes = paths.filter((p) => /^(heap size|blocks in use|live bytes|allocation rate)/.test(title(p)) && !/lowest and highest/.test(title(p)));
        const fills = paths.filter((p) => /lowest and highest/.test(title(p)) || grey.has(p.getAttribute("fill")) || strip(p));
        const inked = [], box = (p, m) => { const b = p.getBBox(); return [p, b.x - m, b.y - m, b.x + b.width + m, b.y + b.height + m]; };
        const near = (t, list) => list.filter(([, x0, y0, x1, y1]) => x0 < t.x1 && t.x0 < x1 && y0 < t.y1 && t.y0 < y1).map((b) => b[0]);
        const strokeBoxes = strokes.map((p) => box(p, Number(p.getAttribute("stroke-width")) || 1)), fillBoxes = fills.map((p) => box(p, 0));
        for (const t of texts) {
          const ss = near(t, strokeBoxes), fs = near(t, fillBoxes);
          if (ss.length + fs.length === 0) continue;
          search: for (let x = t.x0; x <= t.x1; x += 0.5) for (let y = t.y0; y <= t.y1; y += 0.5) {
            const at = new DOMPoint(x, y), hit = ss.find((p) => p.isPointInStroke(at)) || fs.find((p) => p.isPointInFill(at));
            if (hit) { inked.push(`"${t.text}" over ${title(hit) || "the GC strip"} at ${x.toFixed(1)},${y.toFixed(1)}`); break search; }
          }
        }
        const named = strokes.map(title).filter((t) => !t.startsWith("allocation rate")).map((name) => [name, texts.some((t) => t.text === name)]);
        return { vb: [vb.x, vb.y, vb.width, vb.height], texts, line: line ? points(line) : null, bars, ticks, inked, lines: strokes.length, named,
          heapLowest: Math.max(-Infinity, ...heap.map((b) => b.y + b.height)) };
      }, RATE);
      figures++;
      const tag = `${name} ${size}`;
      // A biographical profile's censuses come after the run's last collection: no
      // allocation reading falls in their stretch, and there is no panel, no label of one.
      if (!r.line) {
        check(/-hb|-hc-hb/.test(name) && !r.texts.some((t) => rate(t.text) !== null || t.text.startsWith("allocation rate")),
          `${tag}: no rate drawn, and no panel's label (a biographical profile's censuses after the run's last collection)`);
        continue;
      }
      // The panel's labels: bytes per second, on their ticks, rising upwards, the top one over the line's highest point.
      const labels = r.texts.filter((t) => rate(t.text) !== null).map((t) => ({ v: rate(t.text), y: r.ticks.find((y) => Math.abs(y - t.mid) < 2) }));
      const onTicks = labels.every((l) => l.y !== undefined);
      labels.sort((a, b) => a.v - b.v);
      const rising = labels.length >= 2 && labels.every((l, k) => k === 0 || l.y < labels[k - 1].y);
      const highest = Math.min(...r.line.map((q) => q[1])), lowest = Math.max(...r.line.map((q) => q[1]));
      const top = labels[labels.length - 1], zero = labels[0];
      check(labels.length >= 2 && onTicks && rising && zero.v === 0 && top.y <= highest + 0.01 && lowest <= zero.y + 0.01,
        `${tag}: ${labels.length} B/s labels on ticks, rising, from 0 at or under the line to ${top && top.v} B/s at or over its peak`);
      check(r.heapLowest <= top.y - 1, `${tag}: the heap graph (lowest ink ${r.heapLowest.toFixed(1)}) stays above the rate panel (top ${top.y.toFixed(1)})`);
      // Texts: inside the figure, apart from each other, off every line, envelope and the strip's bars.
      const [vx, vy, vw, vh] = r.vb, wrong = [...r.inked];
      for (const t of r.texts) {
        if (t.x0 < vx - 0.5 || t.y0 < vy - 0.5 || t.x1 > vx + vw + 0.5 || t.y1 > vy + vh + 0.5) wrong.push(`"${t.text}" leaves the figure`);
      }
      for (let i = 0; i < r.texts.length; i++) for (let j = i + 1; j < r.texts.length; j++) {
        const a = r.texts[i], c = r.texts[j];
        if (Math.min(a.x1, c.x1) - Math.max(a.x0, c.x0) > 0.5 && Math.min(a.y1, c.y1) - Math.max(a.y0, c.y0) > 0.5) wrong.push(`"${a.text}" over "${c.text}"`);
      }
      // The key beside the graph: the texts right of it, under the title's row; no two alike.
      const right = Math.max(...r.line.map((q) => q[0])), keyTexts = r.texts.filter((t) => t.x0 > right + 2 && t.y0 > r.vb[1] + 25).map((t) => t.text);
      const twice = keyTexts.filter((t, k) => keyTexts.indexOf(t) !== k);
      check(twice.length === 0, `${tag}: the key's ${keyTexts.length} entries are told apart (${twice.join(", ")})`);
      const unnamed = r.named.filter(([, seen]) => !seen).map(([name]) => name);
      check(unnamed.length === 0, `${tag}: every runtime line is named, at its end, along it or in the lines' key (${unnamed.join(", ") || r.named.length + " lines"})`);
      check(wrong.length === 0, `${tag}: ${r.texts.length} texts apart, in the figure, off ${r.lines} lines, their envelopes and the strip (${wrong.slice(0, 4).join("; ")})`);
      // A plain run's rate, read through the axes' labels, adds up to what -s says it allocated.
      const want = existsSync(s) && !/-h/.test(name) && allocated(s);
      const times = r.texts.filter((t) => seconds(t.text) !== null).map((t) => [t.cx, seconds(t.text)]);
      if (want && times.length >= 2 && size === "17cmx6cm") {
        const [[xa, ta], [xb, tb]] = [times[0], times[times.length - 1]];
        const t = (x) => ta + (x - xa) * (tb - ta) / (xb - xa), v = (y) => (zero.y - y) / (zero.y - top.y) * top.v;
        const step = (t(r.line[r.line.length - 1][0]) - t(r.line[0][0])) / (r.line.length - 1);
        const sum = r.line.reduce((acc, q) => acc + v(q[1]) * step, 0);
        check(Math.abs(sum - want) <= 0.03 * want, `${tag}: the rate read off its axes adds up to ${(sum / 1e6).toFixed(1)} MB, -s says ${(want / 1e6).toFixed(1)} MB`);
      }
    }
  }
  // The page: the panel under the graph, its axis rescaled to the zoomed window.
  for (const log of ["fixtures/stats/ghc-9.0.2/MapBuild-plain.eventlog", "fixtures/eventlog-9.10/Leak-hT.eventlog"]) {
    const { page: doc, problems } = await open(browser, render(join(root, log), join(work, "page.html"), "--heap-lines"));
    const read = () => doc.evaluate(() => {
      const P = window.hpgraph.data().plot, chart = document.querySelector("#chart");
      const line = chart.querySelector("path.heap-line.rate"), pts = line ? (line.getAttribute("d").match(/-?[\d.]+ -?[\d.]+/g) || []).map((q) => q.split(" ").map(Number)) : [];
      const ticks = [...chart.querySelectorAll("path.tick")].map((t) => /^M([-\d.]+) ([-\d.]+)h-4$/.exec(t.getAttribute("d"))).filter(Boolean).map((m) => Number(m[2]));
      const labels = [...chart.querySelectorAll(".tick-label")].filter((t) => /B\/s$/.test(t.textContent)).map((t) => [t.textContent, Number(t.getAttribute("y"))]);
      return { bottom: P.y + P.h, pts, ticks, labels };
    });
    const judge = async (what) => {
      const r = await read();
      const labels = r.labels.map(([t, y]) => ({ v: rate(t), y: r.ticks.reduce((b, k) => (Math.abs(k - y) < Math.abs(b - y) ? k : b), Infinity) })).sort((a, b) => a.v - b.v);
      const top = labels[labels.length - 1], zero = labels[0], ys = r.pts.map((q) => q[1]);
      const highest = Math.min(...ys), peak = top && (zero.y - highest) / (zero.y - top.y) * top.v;
      check(r.pts.length > 1 && labels.length >= 2 && zero.v === 0 && Math.min(...ys) > r.bottom && top.y <= highest + 0.01 && Math.max(...ys) <= zero.y + 0.01,
        `${log} page, ${what}: the rate under the graph, ${labels.length} B/s labels from 0 to ${top && top.v} B/s over its peak`);
      return { top: top && top.v, peak };
    };
    const whole = await judge("the whole run");
    const [a, b] = await doc.evaluate(() => window.hpgraph.window());
    await doc.evaluate(([a, b]) => window.hpgraph.zoom(a + (b - a) * 0.6, a + (b - a) * 0.8), [a, b]);
    const zoomed = await judge("zoomed to 60%-80% of the run");
    check(zoomed.top <= whole.top && zoomed.top <= 2.5 * zoomed.peak, `${log} page: the zoomed axis's top ${zoomed.top} B/s follows the window's peak ${Math.round(zoomed.peak)} B/s (the run's top ${whole.top})`);
    check(problems.length === 0, `${log} page: no console error and no request (${problems.join("; ")})`);
    await doc.close();
  }
} finally {
  await browser.close();
}
check(figures >= 50, `${figures} figures read`);
finish("the allocation rate in a panel of its own, on a B/s axis, clear of the heap graph and of every text");
