// Drives the page of `hpgraph --compare` in headless Chromium: a leak and its fix
// (fixtures/compare, both runs' .hp files). Checks what a reader does with it: hover
// over one run's graph and see one time marked in both, with both runs' totals there
// (checked against the .hp files' own lines, read here) and the band under the pointer
// named; read each run's key, its swatches the bands' fills; type a regular expression in
// the filter box and see only matching bands in the table and the picture; no script
// error, no request elsewhere.
//
//   node tests/browser/compare.mjs [HPGRAPH]      (default target/release/hpgraph)
//
// Exits 1 if a check failed, saying which.

import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { check, finish, hpgraph, root, scratch, launch } from "./harness.mjs";

const work = scratch("compare");

/** Each sample of a .hp file: its time and the total of its lines. */
function totals(path) {
  const out = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.startsWith("BEGIN_SAMPLE ")) out.push({ time: parseFloat(line.slice(13)), total: 0 });
    else if (line.includes("\t") && out.length) out[out.length - 1].total += Number(line.split("\t").pop());
  }
  return out;
}
function bytes(v) {
  for (const [u, n] of [[1e12, "TB"], [1e9, "GB"], [1e6, "MB"], [1e3, "kB"], [1, "B"]]) {
    if (Math.abs(v) >= u || u === 1) {
      const x = v / u, d = u === 1 ? 0 : Math.abs(x) >= 99.95 ? 0 : Math.abs(x) >= 9.995 ? 1 : 2;
      return `${x.toFixed(d)} ${n}`;
    }
  }
}

const before = join(root, "fixtures/compare/Leak-hc.hp");
const after = join(root, "fixtures/compare/LeakFixed-hc.hp");
const page = join(work, "compare.html");
execFileSync(hpgraph, ["--compare", before, after, "-t0", "-o", page]);

const browser = await launch();
try {
  const tab = await browser.newPage({ viewport: { width: 1400, height: 1400 } });
  const problems = [];
  tab.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
  tab.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  tab.on("request", (r) => { if (!r.url().startsWith("file:")) problems.push(`request: ${r.url()}`); });
  await tab.goto(pathToFileURL(page).href);

  // ---- one time in both runs ----
  const panels = await tab.evaluate(() => {
    const D = window.hpgraph.data(), svg = document.querySelector("#chart svg"), m = svg.getScreenCTM();
    return D.panels.map((p) => {
      const at = (x, y) => { const q = svg.createSVGPoint(); q.x = x; q.y = y; return q.matrixTransform(m); };
      const a = at(p.x, p.y), b = at(p.x + p.w, p.y + p.h);
      return { x0: a.x, x1: b.x, y0: a.y, y1: b.y, t0: p.t0, xr: p.xr };
    });
  });
  check(panels.length === 2, "the page knows both graphs");
  const top = panels[0];
  // A time a tenth of the way across the first graph: both runs hold something there.
  const x = top.x0 + (top.x1 - top.x0) * 0.1, t = top.t0 + 0.1 * top.xr;
  await tab.mouse.move(x, (top.y0 + top.y1) / 2);
  const tip = await tab.evaluate(() => {
    const t = document.getElementById("tooltip");
    return { hidden: t.hidden, lines: [...t.children].map((c) => c.textContent) };
  });
  check(!tip.hidden, `hovering shows the tooltip (${tip.lines.join(" | ")})`);
  const cursors = await tab.$$eval("#chart line.cursor", (ls) => ls.map((l) => l.style.display !== "none"));
  check(cursors.length === 2 && cursors.every(Boolean), "a line marks the time in both graphs");
  const want = (path) => {
    const s = totals(path).filter((s) => s.time <= t).pop();
    return s ? bytes(s.total) : "not yet sampled";
  };
  check(tip.lines[1] === `before: ${want(before)}`, `the first run's total there is its file's (${tip.lines[1]} / ${want(before)})`);
  check(tip.lines[2] === `after: ${want(after)}`, `the second run's total there is its file's (${tip.lines[2]} / ${want(after)})`);

  // ---- the key: each run's bands named beside their colours, read from the picture ----
  const keyed = await tab.$$eval("#chart text.key-label", (ls) => ls.map((l) => {
    const swatch = l.previousElementSibling, bands = [...document.querySelectorAll("#chart path.band")].filter((b) => b.getAttribute("data-band") === l.textContent);
    return { name: l.textContent, swatch: swatch && swatch.classList.contains("key-swatch") ? swatch.getAttribute("fill") : null, fills: bands.map((b) => b.getAttribute("fill")) };
  }));
  const unmatched = keyed.filter((k) => !k.swatch || k.fills.length === 0 || k.fills.some((f) => f !== k.swatch));
  check(keyed.length >= 6 && unmatched.length === 0,
    `the picture keys ${keyed.length} bands, each swatch its band's fill (${unmatched.map((k) => k.name).join(", ")})`);
  // The band under the pointer is named: a point of the first band seen on top.
  const under = await tab.evaluate(() => {
    for (const band of document.querySelectorAll("#chart path.band")) {
      const box = band.getBoundingClientRect();
      for (let y = box.bottom - 2; y > box.top; y -= 3) {
        for (let x = box.left + 2; x < box.right; x += 5) {
          if (document.elementFromPoint(x, y) === band) return { x, y, name: band.getAttribute("data-band") };
        }
      }
    }
    return null;
  });
  if (under) await tab.mouse.move(under.x, under.y);
  const named = await tab.evaluate(() => [...document.getElementById("tooltip").children].map((c) => c.textContent));
  check(under && named[named.length - 1] === `band: ${under.name}`, `the tooltip names the band under the pointer (${named.join(" | ")})`);

  // ---- the filter box ----
  const rows = () => tab.$$eval("#comparison tbody tr", (rs) => rs.filter((r) => !r.hidden).map((r) => r.getAttribute("data-band")));
  const all = await rows();
  check(all.length > 5, `the table lists every band (${all.length})`);
  await tab.fill("#filter", "^GHC\\.IO");
  const kept = await rows();
  check(kept.length > 0 && kept.every((n) => /^GHC\.IO/.test(n)) &&
    kept.length === all.filter((n) => /^GHC\.IO/.test(n)).length,
    `the filter keeps the matching rows (${kept.join(", ")})`);
  const drawn = await tab.$$eval("#chart [data-band]", (es) =>
    es.filter((e) => e.style.visibility !== "hidden").map((e) => e.getAttribute("data-band")));
  check(drawn.length > 0 && drawn.every((n) => /^GHC\.IO/.test(n)), "and the picture only the matching bands");
  await tab.fill("#filter", "(");
  check(await tab.getAttribute("#filter", "aria-invalid") === "true", "a broken expression is marked, not thrown");
  await tab.fill("#filter", "");
  check((await rows()).length === all.length, "an empty filter shows every band again");
  // ---- what changed by stack: the differential flame graph ----
  // Each frame's title holds both runs' bytes at each one's peak census; the root's are
  // the .hp files' own peak totals, read here.
  const peakTotal = (path) => totals(path).reduce((m, s) => Math.max(m, s.total), 0);
  const flameTitles = await tab.$$eval("#diff-flame svg title", (ts) => ts.map((t) => t.textContent));
  const root = flameTitles.find((t) => t.startsWith("all: "));
  const number = (text) => Number(text.replaceAll(",", ""));
  const m = root && root.match(/^all: ([\d,]+) bytes before, ([\d,]+) bytes after/);
  check(m && number(m[1]) === peakTotal(before) && number(m[2]) === peakTotal(after),
    `the page's differential flame graph holds both runs' peak censuses (${root})`);
  check(flameTitles.filter((t) => / bytes before, [\d,]+ bytes after/.test(t)).length > 5,
    `each frame says its bytes before and after (${flameTitles.length} titles)`);
  check(problems.length === 0, `no script error and no request elsewhere (${problems.join("; ")})`);
} catch (e) {
  check(false, `unexpected: ${e.stack || e}`);
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
finish("all comparison-page checks passed");
