// Figures at a column's width on real programs (#79): six real profiles (pandoc's
// library converting Markdown, -hT and -hc; the leak fixtures' programs on GHC 9.0.2,
// 9.6.6 and 9.10.3) alone and each compared with its fix or a smaller run, as SVG at
// 8.5 cm x 5.5 cm, 8.5 cm x 9 cm and 17 cm x 6 cm, read in Chromium: every text box
// (its width as laid out; the font's cap height over the baseline, its descender under
// it) inside the figure, no two texts overlapping, no text across a stroked line (an
// axis, a tick), and no two bands' fills (the bands' and the key's swatches) closer than
// ΔE 12 in CIE L*a*b* (CIE76).
//
//   node tests/browser/columns.mjs [HPGRAPH]   (default target/release/hpgraph)

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { check, finish, hpgraph, open, root, scratch, launch } from "./harness.mjs";

const work = scratch("columns");
const f = (p) => join(root, "fixtures", p);
// Each profile with the run it is compared with.
const pairs = [
  ["pandoc/ghc-9.0.2/Pandoc-hT.hp", "pandoc/ghc-9.0.2/Pandoc200-hT.hp"],
  ["pandoc/ghc-9.0.2/Pandoc-hc.hp", "pandoc/ghc-9.0.2/Pandoc200-hc.hp"],
  ["leak/ghc-9.0.2/Log-hT.hp", "leak/ghc-9.0.2/LogFixed-hT.hp"],
  ["leak/ghc-9.0.2/Records-hc.hp", "leak/ghc-9.0.2/RecordsFixed-hc.hp"],
  ["leak/ghc-9.6.6/Cache-hT.hp", "leak/ghc-9.6.6/CacheFixed-hT.hp"],
  ["leak/ghc-9.10.3/Accumulator-hc.hp", "leak/ghc-9.10.3/AccumulatorFixed-hc.hp"],
];
const sizes = ["8.5cmx5.5cm", "8.5cmx9cm", "17cmx6cm"];

// sRGB to CIE L*a*b* (D65), as the layout measures its paints.
const lab = (hex) => {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = c.map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const t = (v) => (v > 0.008856 ? Math.cbrt(v) : 7.787 * v + 16 / 116);
  return [116 * t(y) - 16, 500 * (t(x) - t(y)), 200 * (t(y) - t(z))];
};
const grey = (name) => {
  const m = /^rgb\((\d+), ?(\d+), ?(\d+)\)$/.exec(name);
  return m ? "#" + m.slice(1).map((v) => Number(v).toString(16).padStart(2, "0")).join("") : name;
};

const browser = await launch();
let figures = 0, texts = 0, pairsMeasured = 0, least = Infinity;
try {
  const page = await browser.newPage();
  for (const [n, [one, two]] of pairs.entries()) {
    for (const size of sizes) {
      for (const compared of [false, true]) {
        const out = join(work, `${n}-${size}-${compared ? "cmp" : "one"}.svg`);
        const args = compared ? ["--compare", f(one), f(two)] : [f(one)];
        execFileSync(hpgraph, [...args, "--size", size, "-o", out], { stdio: ["ignore", "inherit", "inherit"] });
        await page.goto(pathToFileURL(out).href);
        const r = await page.evaluate(() => {
          const svg = document.querySelector("svg"), vb = svg.viewBox.baseVal, wrong = [];
          const boxes = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim() !== "").map((t) => {
            const b = t.getBBox(), fs = Number(t.getAttribute("font-size")), y = Number(t.getAttribute("y"));
            return [t.textContent, b.x, y - 0.72 * fs, b.x + b.width, y + 0.21 * fs];
          });
          for (const [t, x0, y0, x1, y1] of boxes) {
            if (x0 < vb.x - 0.5 || y0 < vb.y - 0.5 || x1 > vb.x + vb.width + 0.5 || y1 > vb.y + vb.height + 0.5) wrong.push(`"${t}" leaves the figure`);
          }
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i], c = boxes[j];
            if (Math.min(a[3], c[3]) - Math.max(a[1], c[1]) > 0.5 && Math.min(a[4], c[4]) - Math.max(a[2], c[2]) > 0.5) wrong.push(`"${a[0]}" over "${c[0]}"`);
          }
          // Stroked lines: the axes and their ticks (an unfilled path of one segment).
          const lines = [...svg.querySelectorAll("path")].filter((p) => p.getAttribute("fill") === "none").map((p) => {
            const m = /^M([-\d.]+),([-\d.]+) L([-\d.]+),([-\d.]+)$/.exec(p.getAttribute("d") || "");
            return m && m.slice(1).map(Number);
          }).filter(Boolean);
          for (const [t, x0, y0, x1, y1] of boxes) {
            for (const [a, b, c, d] of lines) {
              const [lx0, lx1, ly0, ly1] = [Math.min(a, c), Math.max(a, c), Math.min(b, d), Math.max(b, d)];
              if (lx1 > x0 + 0.5 && lx0 < x1 - 0.5 && ly1 > y0 + 0.5 && ly0 < y1 - 0.5) {
                wrong.push(`"${t}" across the line ${[a, b, c, d].map((v) => v.toFixed(1)).join(",")}`);
                break;
              }
            }
          }
          // Every fill of a band or a key's swatch (a closed, filled path), as the browser
          // computes it.
          const fills = new Set([...svg.querySelectorAll("path")].filter((p) => /z\s*$/i.test(p.getAttribute("d") || "") || p.querySelector("title"))
            .map((p) => getComputedStyle(p).fill).filter((c) => c !== "none" && c !== "rgb(0, 0, 0)" && c !== "rgb(255, 255, 255)"));
          return { wrong, count: boxes.length, fills: [...fills] };
        });
        const fills = r.fills.map(grey);
        for (let i = 0; i < fills.length; i++) for (let j = i + 1; j < fills.length; j++) {
          const [p, q] = [lab(fills[i]), lab(fills[j])];
          const d = Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
          least = Math.min(least, d);
          pairsMeasured++;
          if (d < 12) r.wrong.push(`fills ${fills[i]} and ${fills[j]} are ΔE ${d.toFixed(1)} apart`);
        }
        check(r.wrong.length === 0, `${compared ? "--compare " : ""}${one} at ${size}: ${r.count} texts${r.wrong.length ? ": " + r.wrong.slice(0, 6).join("; ") : ""}`);
        figures++;
        texts += r.count;
      }
    }
  }
  // The page's key names bands as the pictures' keys do: no `(N)`, no package or unit
  // id (`pandoc-2.17.1.1-bBC0rtgHvLLxePeF98Kfh:`) where the picture drops it, the whole
  // name on hover; no entry taller than two lines.
  for (const input of ["pandoc/ghc-9.0.2/Pandoc-hT.hp", "pandoc/ghc-9.0.2/Pandoc-hc.hp", "leak/ghc-9.6.6/Cache-hT.hp"]) {
    const html = join(work, input.replace(/\//g, "-") + ".html");
    execFileSync(hpgraph, [f(input), "-o", html], { stdio: ["ignore", "inherit", "inherit"] });
    const { page: p, problems } = await open(browser, html);
    const r = await p.evaluate(() => [...document.querySelectorAll("#key li[data-band]")].map((li) => {
      const name = li.querySelector(".name"), lines = name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).lineHeight);
      return { text: name.textContent, title: li.getAttribute("title"), band: li.dataset.band, lines };
    }));
    const wrong = [];
    let packaged = 0;
    for (const e of r) {
      if (/^[A-Za-z0-9._-]*[A-Za-z][A-Za-z0-9._-]*:(?=[A-Z])/.test(e.text)) wrong.push(`"${e.text}" keeps its package`);
      if (/^\(\d+\)/.test(e.text)) wrong.push(`"${e.text}" keeps GHC's number`);
      if (e.title !== e.band) wrong.push(`"${e.text}" titled "${e.title}", not its whole name`);
      if (e.lines > 2.05) wrong.push(`"${e.text}" takes ${e.lines.toFixed(1)} lines`);
      if (/^[A-Za-z0-9._-]*[A-Za-z][A-Za-z0-9._-]*:(?=[A-Z])/.test(e.band.replace(/^\(\d+\)/, ""))) packaged++;
    }
    check(wrong.length === 0 && problems.length === 0 && r.length >= 3, `the page of ${input}: ${r.length} key entries (${packaged} named with a package)${wrong.length ? ": " + wrong.slice(0, 5).join("; ") : ""}${problems.join("; ")}`);
    await p.close();
  }
  // `--view share` opens the page in its share view (#78), the percent axis drawn.
  {
    const html = join(work, "share.html");
    execFileSync(hpgraph, [f("pandoc/ghc-9.0.2/Pandoc-hT.hp"), "--view", "share", "-o", html], { stdio: ["ignore", "inherit", "inherit"] });
    const { page: p, problems } = await open(browser, html);
    const r = await p.evaluate(() => {
      const P = window.hpgraph.data().plot;
      return { view: document.getElementById("view").value, labels: [...document.querySelectorAll("#chart .tick-label")].filter((t) => Number(t.getAttribute("x")) < P.x).map((t) => t.textContent) };
    });
    check(r.view === "share" && r.labels.length >= 3 && r.labels.every((t) => t.endsWith("%")) && !problems.length, `--view share: the page opens in ${r.view} (${r.labels.join(" ")})${problems.join("; ")}`);
    await p.close();
  }
} finally {
  await browser.close();
}
check(figures === pairs.length * sizes.length * 2, `${figures} figures`);
check(pairsMeasured > 500, `${pairsMeasured} pairs of fills measured, the closest ΔE ${least.toFixed(1)}`);
finish(`${figures} figures at a column's width, ${texts} texts: inside, apart, off the lines; fills ΔE 12 apart`);
