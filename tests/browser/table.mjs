// The page's table against `hpgraph --summary`: one definition of every figure. For real
// profiles of three GHCs and random windows zoomed in the page, every number the table
// shows (each cell's exact value, data-value) equals what `--summary=json --from --to`
// gives for the window the table states (data-from, data-to), and every cell's text
// equals `--summary`'s text for that band: same sums, same rounding, same verdict. Exact,
// as these profiles are under the page's thinning limit. The flame graph of the window's
// mean holds each frame's bytes as `--flame=mean --from --to` does; a zoomed key names
// the summary's largest shares; an eventlog's collections' strip refines the picture's.
//
//   node tests/browser/table.mjs [HPGRAPH]      (default target/release/hpgraph)

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { check, finish, hpgraph, open as openPage, render, root, scratch, launch } from "./harness.mjs";

const work = scratch("table");
const open = (browser, file) => openPage(browser, file, () => window.hpgraph && window.hpgraph.data());

// Profiles: .hp files GHC 9.0.2 wrote, eventlogs of 9.0.2, 9.6 and 9.10, and the public
// corpus when it is beside the checkout.
const inputs = [
  "fixtures/profiles/ManyCC-hc.hp", "fixtures/profiles/Leak-hc.hp", "fixtures/profiles/MapBuild-hT.hp",
  "fixtures/profiles/Names-hy.hp", "fixtures/eventlog/Leak-hc.eventlog", "fixtures/eventlog/ManyCC-hT.eventlog",
].map((f) => join(root, f));
for (const dir of ["fixtures/eventlog-9.6", "fixtures/eventlog-9.10"]) {
  const logs = readdirSync(join(root, dir)).filter((f) => f.endsWith(".eventlog")).sort();
  inputs.push(...logs.slice(0, 2).map((f) => join(root, dir, f)));
}
// Runs with the runtime's -s beside them: the panel of each GHC.
for (const ghc of ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"]) inputs.push(join(root, "fixtures/stats", ghc, "MapBuild-N2.eventlog"), join(root, "fixtures/stats", ghc, "Leak-hc.eventlog"));
// A leak freed as its program finishes, and its fix (fixtures/leak): the teardown the
// trend leaves out is the page's as the summary's, whole run and zoomed.
inputs.push(join(root, "fixtures/leak/ghc-9.0.2/Cache-hT.eventlog"), join(root, "fixtures/leak/ghc-9.10.3/Cache-hc.hp"),
  join(root, "fixtures/leak/ghc-9.6.6/CacheFixed-hT.hp"));
const corpus = join(root, "../shared/corpus-public");
if (existsSync(corpus)) {
  inputs.push(...readdirSync(corpus).filter((f) => f.endsWith(".hp")).sort().slice(0, 6).map((f) => join(corpus, f)));
}

// A fixed seed: the same windows every run, so a failure can be repeated.
let seed = 20261124;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

const summary = (file, from, to, style) => execFileSync(hpgraph,
  [`--summary=${style}`, file, "--from", from, "--to", to], { maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] }).toString();

/** `--summary`'s text table: for each band, its cells as printed. */
function textRows(text) {
  const lines = text.split("\n"), head = lines.findIndex((l) => l.startsWith("share"));
  const rows = new Map();
  for (const line of lines.slice(head + 1)) {
    const m = line.match(/^\s*(\S+)\s+(.+?)\s{2,}(.+?)\s{2,}(.+?)\s{2,}(\S+)\s+(\S+(?: \S+)?)\s{2,}(\S+)\s{2}(.+)$/);
    if (m && m[1].endsWith("%")) rows.set(m[8], { share: m[1], peak: m[2], at: m[3], mean: m[4], trend: m[5], growth: m[6], r2: m[7] });
  }
  return rows;
}

const FIELDS = [["share", "share", 2], ["peak", "peak", 3], ["peak_time", "at", 4], ["mean", "mean", 5],
  ["growth_per_second", "growth", 6], ["growth_r2", "r2", 7], ["trend", "trend", 8]];

/**
 * The page's collections' strip, unzoomed, against the picture's (the one the page of the
 * same eventlog with --heap-lines carries, seen without the script): the page draws a level at least as fine as the picture's
 * merging, so each of its marks lies within one of the picture's, every picture mark
 * holds one of the page's, and a picture mark is major exactly when a page mark in it is.
 */
async function stripAgrees(browser, file, n) {
  const name = file.split("/").pop(), html = render(file, join(work, `s${n}.html`), "--heap-lines");
  const { page } = await open(browser, html);
  const marks = await page.$$eval("g.gc-strip rect.gc", (rs) => rs.map((r) => [Number(r.getAttribute("x")), Number(r.getAttribute("x")) + Number(r.getAttribute("width")), r.classList.contains("major")]));
  // A major collection's bar is the darker grey.
  const major = await page.evaluate(() => window.hpgraph.data().gc_fills[1]);
  await page.close();
  // The picture the file carries, as a reader without the script sees it.
  const still = await browser.newContext({ javaScriptEnabled: false }), pic = await still.newPage();
  await pic.goto("file://" + html);
  const picture = await pic.$$eval("#chart path.collection", (ps, major) => ps.filter((p) => !/^(#fff|#ffffff|white)$/i.test(p.getAttribute("fill") || ""))
    .map((p) => { const b = p.getBBox(); return [b.x, b.x + b.width, p.getAttribute("fill") === major]; }), major);
  await still.close();
  if (!picture.length) return;
  const eps = 0.02, within = (m, p) => m[0] >= p[0] - eps && m[1] <= p[1] + eps;
  const stray = marks.filter((m) => !picture.some((p) => within(m, p)));
  const empty = picture.filter((p) => !marks.some((m) => within(m, p)));
  const wrong = picture.filter((p) => p[2] !== marks.some((m) => within(m, p) && m[2]));
  check(marks.length >= picture.length && !stray.length && !empty.length && !wrong.length,
    `${name}: the page's strip (${marks.length} marks) refines the picture's (${picture.length})${stray.length ? `, ${stray.length} outside` : ""}${empty.length ? `, ${empty.length} empty` : ""}${wrong.length ? `, ${wrong.length} major/minor apart` : ""}`);
  stripsCompared++;
}

const browser = await launch();
let compared = 0, unjudgedWindows = 0, keyWindows = 0, stripsCompared = 0, runtimeWindows = 0, flameWindows = 0, flameFrames = 0, flameCensuses = 0;
try {
  for (const [n, file] of inputs.entries()) {
    const name = file.split("/").pop();
    const { page, problems } = await open(browser, render(file, join(work, `p${n}.html`)));
    const samples = await page.evaluate(() => window.hpgraph.data().samples);
    const kept = await page.evaluate(() => window.hpgraph.data().times.length);
    check(kept === samples, `${name}: the page keeps all ${samples} samples (exact figures are owed)`);
    const [t0, t1] = await page.evaluate(() => window.hpgraph.window());
    const windows = [null];
    for (let k = 0; k < 5; k++) {
      const a = t0 + (t1 - t0) * random() * 0.8;
      windows.push([a, a + (t1 - t0) * (0.05 + random() * 0.5)]);
    }
    for (const w of windows) {
      await page.evaluate((w) => w ? window.hpgraph.zoom(w[0], w[1]) : window.hpgraph.zoom(null), w);
      const table = await page.$eval("#summary", (t) => ({
        from: t.dataset.from, to: t.dataset.to, trendFrom: t.dataset.trendFrom, trendTo: t.dataset.trendTo,
        rows: [...t.tBodies[0].rows].filter((r) => r.dataset.band !== undefined).map((r) => ({
          name: r.dataset.band, cells: [...r.cells].map((c) => ({ text: c.textContent, value: c.dataset.value }))
        }))
      }));
      const what = `${name} ${w ? `window ${table.from} to ${table.to}` : "whole run"}`;
      if (w) check(Number(table.from) === w[0] && Number(table.to) === w[1], `${what}: the table states the zoomed window`);
      let json;
      try {
        json = JSON.parse(summary(file, table.from, table.to, "json"));
      } catch (e) {
        check(table.rows.length === 0, `${what}: no sample there, and the table is empty (${table.rows.length} rows)`);
        continue;
      }
      // An eventlog without a heap profile: its summary is the runtime's figures over the
      // window, and neither has a band.
      if (json.band_count === 0) {
        check(table.rows.length === 0, `${what}: no band, and the table is empty (${table.rows.length} rows)`);
        continue;
      }
      const summaryText = summary(file, table.from, table.to, "text");
      const text = textRows(summaryText);
      // Too few censuses for a trend: the table's heading says so exactly where the
      // summary's does (and names no trend's part it did not judge).
      const few = /too few censuses for a trend/.test(summaryText), heading = await page.textContent("#table-window");
      check(heading.includes("too few censuses for a trend") === few && heading.includes("trend over") === !few,
        `${what}: the heading says the trend ${few ? "cannot be judged" : "is judged"}, as --summary does (${heading})`);
      unjudgedWindows += few ? 1 : 0;
      // The R² its line needs over that many samples: the heading's is the summary's.
      const needs = (t) => (t.match(/R² ≥ ([0-9.]+)/) || [])[1];
      check(few || (needs(heading) !== undefined && needs(heading) === needs(summaryText)), `${what}: the heading's R² ≥ ${needs(heading)} is --summary's ${needs(summaryText)}`);
      check(json.trend_window.from === Number(table.trendFrom) && json.trend_window.to === Number(table.trendTo),
        `${what}: the trend's part is the summary's (${table.trendFrom} to ${table.trendTo})`);
      const want = json.bands.filter((b) => b.peak > 0);
      // A zoom ranks the key by the window's area: the bands it names on their own are the
      // summary's largest shares there (ties may fall either way).
      if (w && !(await page.evaluate(() => window.hpgraph.data().rest))) {
        const named = (await page.evaluate(() => window.hpgraph.keyNames())).filter((k) => k !== "OTHER");
        const share = new Map(json.bands.map((b) => [b.name, b.share]));
        const least = Math.min(...named.map((k) => share.get(k) ?? -1)), left = want.filter((b) => !named.includes(b.name));
        const above = left.filter((b) => b.share > least * (1 + 1e-9));
        check(named.every((k) => share.has(k)) && above.length === 0,
          `${what}: the key's ${named.length} bands are the summary's largest shares${above.length ? ` (left out: ${above.map((b) => b.name).slice(0, 3)})` : ""}`);
        keyWindows++;
      }
      const byName = new Map(table.rows.map((r) => [r.name, r]));
      check(table.rows.length === want.length, `${what}: the table has the summary's ${want.length} bands (${table.rows.length})`);
      const wrong = [];
      for (const b of want) {
        const row = byName.get(b.name);
        if (!row) { wrong.push(`${b.name}: missing`); continue; }
        for (const [field, label, col] of FIELDS) {
          const cell = row.cells[col], exact = field === "trend" ? cell.value : Number(cell.value);
          if (exact !== b[field]) wrong.push(`${b.name} ${label}: page ${cell.value}, summary ${b[field]}`);
          const printed = text.get(b.name);
          if (!printed) wrong.push(`${b.name}: not in --summary's text`);
          else if (printed[label] !== cell.text) wrong.push(`${b.name} ${label}: page "${cell.text}", summary "${printed[label]}"`);
        }
        compared++;
      }
      check(wrong.length === 0, `${what}: every figure of ${want.length} bands equals --summary's${wrong.length ? ": " + wrong.slice(0, 6).join("; ") : ""}`);
      // The flame graph of the window's mean: each frame's bytes are what
      // `--flame=mean --from --to` gives in its SVG's titles (the same rule, in Rust).
      if (want.length && flameWindows < 40) {
        await page.evaluate(() => window.hpgraph.flameMean());
        const pageFrames = await page.$$eval("#flame-svg g.frame", (gs) => gs
          .filter((g) => !g.dataset.stack.includes(" (its own)") && !g.dataset.stack.includes("narrower parts"))
          .map((g) => [g.dataset.stack, Number(g.dataset.bytes)]));
        const [from, to] = await page.$eval("#flame", (f) => [f.dataset.from, f.dataset.to]);
        check(from === table.from && to === table.to, `${what}: the flame graph's mean is over the table's window (${from} to ${to})`);
        execFileSync(hpgraph, ["--flame=mean", file, "--from", table.from, "--to", table.to, "-o", join(work, "mean.svg")], { stdio: "ignore" });
        const svgText = readFileSync(join(work, "mean.svg"), "utf8");
        const rust = new Map();
        for (const m of svgText.matchAll(/<title>([^<]*)<\/title>/g)) {
          const t = m[1].replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", "\"").replaceAll("&apos;", "'").replaceAll("&amp;", "&");
          const cut = t.lastIndexOf(": ");
          if (cut < 0 || t.includes(" parts of ")) continue;
          const head = t.slice(0, cut), figures = t.slice(cut + 2);
          if (head.includes(" (its own")) continue;
          const stack = head.replace(/ \(GHC cut this name.*$/, "");
          const exact = figures.slice(figures.lastIndexOf(" (") + 2).split(" ")[0].replaceAll(",", "");
          rust.set(stack, Number(exact));
        }
        const off = [];
        let both = 0;
        for (const [stack, bytes] of pageFrames) {
          if (!rust.has(stack)) continue;
          both++;
          const r = rust.get(stack);
          if (Math.abs(bytes - r) > 1e-9 * Math.max(1, Math.abs(r))) off.push(`${stack}: page ${bytes}, --flame=mean ${r}`);
        }
        check(both > 0 && off.length === 0, `${what}: ${both} flame frames of the window's mean are --flame=mean's${off.length ? ": " + off.slice(0, 4).join("; ") : ""}`);
        flameWindows++;
        flameFrames += both;
      }
      // The runtime's panel (eventlogs): its figures are --stats's for the same window.
      const panel = await page.$eval("#runtime", (p) => p.hidden ? null : ({
        from: p.dataset.from, to: p.dataset.to,
        figures: Object.fromEntries([...p.querySelectorAll("[data-figure]")].map((s) => [s.dataset.figure, Number(s.dataset.value)]))
      }));
      if (panel) {
        const s = JSON.parse(execFileSync(hpgraph, ["--stats=json", file, "--from", panel.from, "--to", panel.to]).toString());
        const got = panel.figures, gens = s.generations;
        const want = {
          "gc-share": s.total_elapsed > 0 ? s.gc_elapsed / s.total_elapsed : 0,
          collections: gens.reduce((n, g) => n + g.collections, 0),
          "max-pause": gens.reduce((m, g) => Math.max(m, g.max_pause), 0),
          allocated: s.allocated,
        };
        const off = Object.keys(want).filter((k) => got[k] !== want[k]);
        check(off.length === 0, `${what}: the runtime panel is --stats's${off.length ? ": " + off.map((k) => `${k} ${got[k]} vs ${want[k]}`).join("; ") : ""}`);
        runtimeWindows++;
      }
    }
    // One census inverted, and with the filter box: the frames `--flame=T --inverted` and
    // `--flame=T --include RE` give.
    await page.evaluate(() => window.hpgraph.zoom(null));
    const hasBands = await page.evaluate(() => window.hpgraph.data().bands.some((b) => !b.other));
    const census = hasBands && await page.evaluate(() => {
      const D = window.hpgraph.data(), t = D.times;
      let best = 0;
      for (let i = 0; i < t.length; i++) if (D.totals[i] > D.totals[best]) best = i;
      return t[best];
    });
    const flameTitles = (args) => {
      execFileSync(hpgraph, [`--flame=${census}`, file, ...args, "-o", join(work, "f.svg")], { stdio: "ignore" });
      const out = new Map();
      for (const m of readFileSync(join(work, "f.svg"), "utf8").matchAll(/<title>([^<]*)<\/title>/g)) {
        const t = m[1].replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", "\"").replaceAll("&apos;", "'").replaceAll("&amp;", "&");
        const cut = t.lastIndexOf(": ");
        if (cut < 0 || t.includes(" parts of ") || t.includes(" (its own")) continue;
        const figures = t.slice(cut + 2);
        out.set(t.slice(0, cut).replace(/ \(GHC cut this name.*$/, ""), Number(figures.slice(figures.lastIndexOf(" (") + 2).split(" ")[0].replaceAll(",", "")));
      }
      return out;
    };
    const pageFlame = () => page.$$eval("#flame-svg g.frame", (gs) => gs
      .filter((g) => !g.dataset.stack.includes(" (its own)") && !g.dataset.stack.includes("narrower parts"))
      .map((g) => [g.dataset.stack, Number(g.dataset.bytes)]));
    const agree = (got, want, what) => {
      let both = 0;
      const off = [];
      for (const [stack, bytes] of got) {
        if (!want.has(stack)) continue;
        both++;
        if (bytes !== want.get(stack)) off.push(`${stack}: page ${bytes}, hpgraph ${want.get(stack)}`);
      }
      check(both > 0 && off.length === 0, `${name}: ${what}: ${both} frames are hpgraph's${off.length ? ": " + off.slice(0, 4).join("; ") : ""}`);
    };
    if (hasBands) {
      await page.evaluate((t) => window.hpgraph.flame(t), census);
      await page.evaluate(() => window.hpgraph.flameInverted(true));
      agree(await pageFlame(), flameTitles(["--inverted"]), `the census at ${census} inverted`);
      await page.evaluate(() => window.hpgraph.flameInverted(false));
      const first = await page.evaluate(() => window.hpgraph.data().bands.find((b) => !b.other).name);
      const re = "^" + first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$";
      await page.evaluate((re) => window.hpgraph.filter(re), re);
      agree(await pageFlame(), flameTitles(["--include", re]), `the census at ${census} with the filter ${re}`);
      await page.evaluate(() => window.hpgraph.filter(""));
      flameCensuses++;
    }
    check(problems.length === 0, `${name}: no console error and no request (${problems.join("; ")})`);
    await page.close();
    if (file.endsWith(".eventlog")) await stripAgrees(browser, file, n);
  }
  // Every leak called a leak in the page, every fix not: the largest band's row and the
  // window's line, unzoomed, in the runs of three GHCs (-hT's eventlog, -hc's .hp).
  const programs = [["Cache", true], ["CacheFixed", false], ["Accumulator", true], ["AccumulatorFixed", false],
    ["Records", true], ["RecordsFixed", false], ["Log", true], ["LogFixed", false]];
  for (const ghc of ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"]) {
    for (const [program, leaks] of programs) {
      for (const run of ["hT.eventlog", "hc.hp"]) {
        const file = join(root, `fixtures/leak/${ghc}/${program}-${run}`);
        const { page } = await open(browser, render(file, join(work, `leak-${program}.html`)));
        const rows = await page.$$eval("#summary tbody tr[data-band]", (rs) => rs.map((r) => ({ share: Number(r.cells[2].dataset.value), trend: r.className })));
        const largest = rows.reduce((a, b) => (b.share > a.share ? b : a));
        const line = await page.textContent("#table-window");
        check((largest.trend === "growing") === leaks, `${ghc} ${program}-${run}: the page calls its largest band ${largest.trend}`);
        // The teardown the page leaves out is --summary's, and the cache's is seen.
        const teardown = JSON.parse(execFileSync(hpgraph, ["--summary=json", file]).toString()).teardown_from;
        check(line.includes("before the teardown from") === (teardown !== undefined && teardown !== null) && (program !== "Cache" || teardown),
          `${ghc} ${program}-${run}: the table says a teardown is left out where --summary does (${line})`);
        await page.close();
      }
    }
  }
  check(compared > 500, `${compared} band-windows compared`);
  check(unjudgedWindows >= 3, `${unjudgedWindows} windows of too few censuses for a trend compared`);
  check(keyWindows >= 20, `${keyWindows} zoomed keys compared with --summary's shares`);
  check(stripsCompared >= 6, `${stripsCompared} collections' strips compared with the picture's`);
  check(runtimeWindows >= 20, `${runtimeWindows} windows' runtime panels compared with --stats`);
  check(flameCensuses >= 10, `${flameCensuses} censuses inverted and filtered compared with --flame`);
  check(flameWindows >= 20 && flameFrames > 200, `${flameWindows} windows' mean flame graphs (${flameFrames} frames) compared with --flame=mean`);
} finally {
  await browser.close();
}
finish("the page's table is --summary's, figure for figure");
