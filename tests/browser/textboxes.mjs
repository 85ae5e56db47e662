// Modern figures at any size, read as a reader reads them: for every fixture profile of
// three GHCs at a grid of sizes (6 to 30 cm wide, 4 to 20 cm high) with the key beside
// and below the graph, Chromium measures each text of the SVG (its width as laid out,
// its height the font's cap height over the baseline and descender under it) and the
// axes' lines: no text overlaps another or leaves the figure; each tick has its label
// centred on it; the top tick is at 60% of the highest stack or above; an axis has as
// many ticks as fit (four or more on a 5.5 cm figure); a key below leaves the graph
// half the figure's height; a key name is shortened only when the whole name is wider
// than the key's room. The boxes come from the browser, not from hpgraph's layout.
//
//   node tests/browser/textboxes.mjs [HPGRAPH [PROFILE.hp...]]   (default target/release/hpgraph)

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { check, finish, render, root, scratch, launch } from "./harness.mjs";

const work = scratch("textboxes");
const inputs = [];
for (const [dir, keep] of [["fixtures/profiles", () => true], ["fixtures/eventlog", (f) => f.endsWith("-hc.hp")],
  ["fixtures/eventlog-9.6", (f) => f.endsWith("-hT.hp")], ["fixtures/eventlog-9.10", (f) => f.endsWith("-hc.hp")]]) {
  inputs.push(...readdirSync(join(root, dir)).filter((f) => f.endsWith(".hp") && keep(f)).sort().map((f) => join(root, dir, f)));
}
// Eventlogs with the run's samples beside the heap: their panel's name and key too.
inputs.push(...["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"].map((g) => join(root, "fixtures/prof", g, "MapFib-samples-hc.eventlog")));
// More profiles may follow hpgraph's path (CI adds the public corpus where it has it).
inputs.push(...process.argv.slice(3).map((f) => join(process.cwd(), f)));
const sizes = ["6cmx4cm", "8.5cmx5.5cm", "12cmx8cm", "17cmx6cm", "30cmx20cm", "6cmx20cm", "30cmx4cm"];

const browser = await launch();
let figures = 0, texts = 0, ticks = 0, shortened = 0;
try {
  const page = await browser.newPage();
  for (const [n, input] of inputs.entries()) {
    const name = input.split("/").slice(-2).join("/");
    for (const size of sizes) {
      for (const key of ["right", "below"]) {
        const svg = render(input, join(work, `${n}-${size}-${key}.svg`), "--style", "modern", "--size", size, "--key", key);
        await page.goto(pathToFileURL(svg).href);
        const r = await page.evaluate(() => {
          const svg = document.querySelector("svg"), vb = svg.viewBox.baseVal;
          const boxes = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim() !== "").map((t) => {
            const b = t.getBBox(), fs = Number(t.getAttribute("font-size")), y = Number(t.getAttribute("y"));
            return [t.textContent, b.x, y - 0.72 * fs, b.x + b.width, y + 0.21 * fs];
          });
          const wrong = [];
          for (const [t, x0, y0, x1, y1] of boxes) {
            if (x0 < vb.x - 0.5 || y0 < vb.y - 0.5 || x1 > vb.x + vb.width + 0.5 || y1 > vb.y + vb.height + 0.5) wrong.push(`"${t}" leaves the figure`);
          }
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i], c = boxes[j];
            if (Math.min(a[3], c[3]) - Math.max(a[1], c[1]) > 0.5 && Math.min(a[4], c[4]) - Math.max(a[2], c[2]) > 0.5) wrong.push(`"${a[0]}" over "${c[0]}"`);
          }
          // The axes, read from the paths: the y axis is the longest vertical line (the heap
          // graph's), the time axis the lowest horizontal line from its foot (under the
          // panels a figure may have below the graph: the rate's, the run's samples');
          // ticks are the short lines off them.
          const lines = [...svg.querySelectorAll("path")].map((p) => {
            const m = /^M([-\d.]+),([-\d.]+) L([-\d.]+),([-\d.]+)$/.exec(p.getAttribute("d") || "");
            return m && m.slice(1).map(Number);
          }).filter(Boolean);
          const vertical = lines.filter(([a, , c]) => Math.abs(a - c) < 0.01);
          const axis = vertical.reduce((best, l) => (Math.abs(l[3] - l[1]) > Math.abs(best[3] - best[1]) ? l : best), [0, 0, 0, 0]);
          const x0 = axis[0], foot = Math.max(axis[1], axis[3]), top = Math.min(axis[1], axis[3]);
          const base = Math.max(foot, ...lines.filter(([a, b, c, d]) => Math.abs(b - d) < 0.01 && Math.abs(a - x0) < 0.01 && c > a + 20).map((l) => l[1]));
          const yTicks = lines.filter(([a, b, c, d]) => Math.abs(b - d) < 0.01 && Math.abs(a - x0) < 0.01 && c < a && a - c < 8).map((l) => l[1]);
          const xTickLines = lines.filter(([a, b, c, d]) => Math.abs(a - c) < 0.01 && Math.abs(b - base) < 0.01 && d > b && d - b < 8);
          const xTicks = xTickLines.map((l) => l[0]);
          const texts = [...svg.querySelectorAll("text")].map((t) => {
            const b = t.getBBox(), size = Number(t.getAttribute("font-size"));
            return { t: t.textContent, x: b.x, w: b.width, mid: Number(t.getAttribute("y")) - 0.36 * size, y: Number(t.getAttribute("y")), size };
          });
          const near = (a, b) => Math.abs(a - b) <= 1;
          // Each tick ends above its label's digits, with a gap.
          for (const [x, , , end] of xTickLines) {
            const l = texts.find((l) => l.y > base && l.y < base + 3 * l.size && near(l.x + l.w / 2, x));
            if (l && l.y - 0.72 * l.size < end + 0.5) wrong.push(`the x tick at ${x.toFixed(1)} touches "${l.t}"`);
          }
          // Each tick's label centred on it: across for the x axis, up and down for y.
          for (const ty of yTicks) {
            if (!texts.some((l) => l.x + l.w <= x0 && near(l.mid, ty))) wrong.push(`no label centred on the y tick at ${ty.toFixed(1)}`);
          }
          let xWidest = 0, fs = 0;
          const xLabels = [], yLabels = [];
          for (const ty of [...yTicks].sort((a, b) => b - a)) {
            const l = texts.find((l) => l.x + l.w <= x0 && near(l.mid, ty));
            if (l) yLabels.push(l.t);
          }
          for (const tx of [...xTicks].sort((a, b) => a - b)) {
            const l = texts.find((l) => l.y > base && l.y < base + 3 * l.size && near(l.x + l.w / 2, tx));
            if (!l) wrong.push(`no label centred on the x tick at ${tx.toFixed(1)}`);
            else [xWidest, fs] = [Math.max(xWidest, l.w), l.size], xLabels.push(l.t);
          }
          const gap = (ticks) => Math.min(...ticks.slice(1).map((t, i) => Math.abs(t - ticks[i])));
          const xSpacing = gap([...xTicks].sort((a, b) => a - b)), ySpacing = gap([...yTicks].sort((a, b) => a - b));
          // The top tick at 60% of the highest stack or above it.
          // (A bar of the run's samples under the graph is titled too: not a band.)
          const bands = [...svg.querySelectorAll("path")].filter((p) => p.querySelector("title") && p.getBBox().width > 10 && !/ samples from /.test(p.querySelector("title").textContent));
          const peak = Math.min(...bands.map((p) => p.getBBox().y));
          const topTick = Math.min(...yTicks);
          if (bands.length && foot - peak > 1 && foot - topTick < 0.6 * (foot - peak) - 0.5) {
            wrong.push(`the top tick reaches ${((foot - topTick) / (foot - peak) * 100).toFixed(0)}% of the peak`);
          }
          const plot = foot - top, graphs = base - top;
          // A band's name as the key may give it: without GHC's `(N)` or a closure's
          // package (`main:`), or whole where two bands' names are alike without them.
          const names = bands.flatMap((p) => {
            const t = p.querySelector("title").textContent;
            return [t, t.replace(/^\(\d+\)/, ""), t.replace(/^[A-Za-z0-9._-]*[A-Za-z][A-Za-z0-9._-]*:(?=[A-Z])/, "")];
          });
          // Key labels: right of the graph, or under the x axis's labels.
          const plotRight = Math.max(...lines.filter(([, b, , d]) => Math.abs(b - base) < 0.01 && Math.abs(d - base) < 0.01).map((l) => Math.max(l[0], l[2])));
          const keyed = texts.filter((l) => l.t.trim() !== "" && l.y > top - 2 && (l.x >= plotRight || l.y > base + 2 * l.size));
          return { count: boxes.length, wrong, graphs, yTicks: yTicks.length, xTicks: xTicks.length, xFirst: Math.min(...xTicks), plotRight, plot, plotWidth: plotRight - x0, xSpacing, ySpacing, xWidest, fs, xLabels, yLabels, width: vb.width, height: vb.height, keyed: keyed.map((l) => [l.t, l.w, l.size]), names };
        });
        // The key below leaves the graph half the figure's height at least.
        if (key === "below" && r.graphs < r.height / 2 - 0.5) r.wrong.push(`the graphs are ${(r.graphs / r.height * 100).toFixed(0)}% of the height`);
        const cm = (pt) => pt / 72 * 2.54;
        // At least four values on a 5.5 cm figure's axis (3.5 cm long), more on longer
        // ones; and as many as fit: the next finer 1-2-5 step (2 or 2.5 times finer)
        // would pass fourteen ticks or set the labels closer than two lines up the y
        // axis (a line and a half where that leaves fewer than four), or than their width and most of an em (0.8) across the x axis.
        // Bytes come whole: an axis stepping by one byte (an empty graph's, 0 B to 1 B)
        // has no finer step, and as many ticks as it has bytes.
        const byteSteps = /^\d+ B$/.test(r.yLabels[1] || "") && parseFloat(r.yLabels[1]) - parseFloat(r.yLabels[0]) === 1;
        if (r.plot >= 100 && r.yTicks < 4 && !byteSteps) r.wrong.push(`${r.yTicks} y ticks on ${r.plot.toFixed(0)} pt`);
        if (r.plot >= 400 && r.yTicks < 6 && !byteSteps) r.wrong.push(`${r.yTicks} y ticks on ${r.plot.toFixed(0)} pt`);
        const finer = (labels, spacing, length, quarters) => {
          // The step read from the first two labels (`0 MB`, `5 MB`; not a clock's), the
          // next finer step's spacing (1-2-5 on the y axis; 1-2-2.5-5 on the time axis,
          // `quarters`), and how many ticks it would make.
          const step = parseFloat(labels[1]) - parseFloat(labels[0]);
          if (!(step > 0)) return { spacing: 0, count: Infinity, wider: 0 };
          const m = Math.round(2 * step / 10 ** Math.floor(Math.log10(step) + 1e-9)) / 2;
          const ratio = m === 5 ? (quarters ? 2 : 2.5) : m === 2.5 ? 1.25 : 2;
          // From 1 to 0.5 (and 5 to 2.5) the labels take a decimal more: a digit's width
          // (Helvetica's 0.556 em), and the point's (0.278) where they had none.
          const wider = m === 1 ? (step >= 0.999 ? 0.834 : 0.556) : m === 5 && quarters ? (step >= 4.999 ? 0.834 : 0.556) : 0;
          return { spacing: spacing / ratio, count: Math.floor(length / (spacing / ratio) + 1e-6) + 1, wider };
        };
        const measure = (t, size) => page.evaluate(([t, size]) => {
          const e = document.createElementNS("http://www.w3.org/2000/svg", "text");
          e.setAttribute("font-size", size);
          e.textContent = t;
          document.querySelector("svg").appendChild(e);
          const w = e.getComputedTextLength();
          e.remove();
          return w;
        }, [t, size]);
        const fy = finer(r.yLabels, r.ySpacing, r.plot, false), fx = finer(r.xLabels, r.xSpacing, r.plotWidth, true);
        if (!byteSteps && fy.count <= 14 && fy.spacing >= (r.yTicks < 4 ? 1.5 : 2) * r.fs + 0.5) r.wrong.push(`room for more y ticks than ${r.yTicks} (${r.ySpacing.toFixed(0)} pt apart)`);
        if (fx.count <= 14 && fx.spacing >= r.xWidest + fx.wider * r.fs + 0.8 * r.fs + 0.5) r.wrong.push(`room for more x ticks than ${r.xTicks} (${r.xSpacing.toFixed(0)} pt apart, labels ${r.xWidest.toFixed(0)} pt)`);
        if (r.yTicks < 2 || r.xTicks < 2) r.wrong.push(`axes not found: ${r.yTicks} y and ${r.xTicks} x ticks`);
        // At least four time labels wherever four fit: where there are fewer, a step of
        // 4 times a power of ten that makes four over the axis sets its labels (measured
        // here) closer than their width and most of an em (0.8).
        const seconds = /^[\d.]+ (s|ms)$/.test(r.xLabels[0] || "");
        if (r.xTicks >= 2 && r.xTicks < 4 && seconds) {
          const step = parseFloat(r.xLabels[1]) - parseFloat(r.xLabels[0]), perUnit = r.xSpacing / step;
          const span = r.plotWidth / perUnit, s4 = 4 * 10 ** Math.floor(Math.log10(span / 4));
          const unit = r.xLabels[0].endsWith(" ms") ? " ms" : " s", d = Math.max(0, -Math.floor(Math.log10(s4) + 1e-9));
          const first = parseFloat(r.xLabels[0]), n = Math.floor((span - 1e-9 * s4) / s4) + 1;
          const all = Array.from({ length: n }, (_, k) => (first + k * s4).toFixed(d) + unit);
          const widths = await Promise.all(all.map((l) => measure(l, r.fs))), widest = Math.max(...widths);
          // Those inside the graph whose label, centred on its tick, stays in the figure.
          const labels = all.filter((_, k) => {
            const x = r.xFirst + k * s4 * perUnit;
            return x < r.plotRight && x + widths[k] / 2 <= r.width - 0.5;
          });
          if (labels.length >= 4 && s4 * perUnit >= widest + 0.8 * r.fs + 0.5) r.wrong.push(`${r.xTicks} time labels where four fit (${labels.join(", ")})`);
        }
        // A name shortened only where the whole one would not fit the key's room: a third
        // of the figure beside the graph, half of it below (less the swatch).
        // Labels are matched to bands by name (the drawing order of bands differs
        // between formats' reductions): a label is a band's whole name, or its start
        // and end around `...`.
        if (3 * r.keyed.length !== r.names.length) r.wrong.push(`${r.keyed.length} key labels for ${r.names.length / 3} bands`);
        for (const [label, , fs] of r.keyed) {
          if (r.names.includes(label)) continue;
          shortened++;
          const cut = label.indexOf("...");
          if (cut < 0) {
            r.wrong.push(`"${label}" is no band's name and not shortened`);
            continue;
          }
          // A name told apart from others alike shows its middle between two `...`.
          const last = label.lastIndexOf("...");
          const head = label.slice(0, cut), tail = label.slice(last + 3), middle = head === "" && last > cut ? label.slice(cut + 3, last) : "";
          const whole = r.names.filter((n) => n.length > label.length - 6 && n.startsWith(head) && n.endsWith(tail) && n.includes(middle));
          if (!whole.length) {
            r.wrong.push(`"${label}" is no band's name shortened`);
            continue;
          }
          const em = fs / 10;
          const room = key === "below" ? (r.width - 10) / 2 - 25 * em : Math.max(r.width / 3 - 15 - 14 * em, 40 * em);
          // The widest name it may stand for still fits whole: it was cut for nothing.
          const widths = await Promise.all(whole.map((n) => measure(n, fs)));
          const widest = Math.max(...widths);
          if (widest < room * 0.98) r.wrong.push(`"${whole[widths.indexOf(widest)]}" (${widest.toFixed(0)} pt) shortened to "${label}" in ${room.toFixed(0)} pt`);
        }
        figures++;
        ticks += r.xTicks + r.yTicks;
        texts += r.count;
        if (r.wrong.length) check(false, `${name} at ${size}, key ${key}: ${r.wrong.slice(0, 3).join("; ")}`);
      }
    }
  }
  check(figures >= 500, `${figures} figures (${texts} texts) measured, none overlapping or outside`);
  check(ticks >= 4 * figures, `${ticks} ticks, each with its label centred on it, the top one at 60% of the peak or above, as many as fit`);
  check(shortened >= 100, `${shortened} shortened key names, each too long for the key's room whole`);
} finally {
  await browser.close();
}
finish("modern figures at any size: no text over another or outside, ticks labelled and as many as fit, keys below leave half the height, names shortened only when needed");
