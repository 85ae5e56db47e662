// The page as a tool for finding where memory goes, in a real headless Chromium: a band
// that fills only a short window comes into the key when the page is zoomed there, and
// the table gives that window's numbers; the filter box; the three views; marks drawn
// as labelled lines; heap lines named in the key; a click on the chart opens that
// census's flame graph; the table sorts. Expected values come from the .hp text, read
// here line by line, and from the programs' own marker texts.
//
//   node tests/browser/hunt.mjs [HPGRAPH]      (default target/release/hpgraph)

import { readFileSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readHp } from "./hp.mjs";
import { check, finish, open as openPage, render, root, scratch, launch } from "./harness.mjs";

const work = scratch("hunt");

const total = (s) => [...s.values.values()].reduce((a, b) => a + b, 0);
/** Trapezoids over the samples within [a, b]. */
function area(samples, f, a, b) {
  const inside = samples.filter((s) => s.time >= a && s.time <= b);
  let sum = 0;
  for (let i = 0; i + 1 < inside.length; i++) sum += (f(inside[i]) + f(inside[i + 1])) / 2 * (inside[i + 1].time - inside[i].time);
  return sum;
}

const open = (browser, file) => openPage(browser, file, () => window.hpgraph && window.hpgraph.data());

const keyNames = (page) => page.$$eval("#key li[data-band]", (es) => es.map((e) => e.getAttribute("data-band")));
const drawnNames = (page) => page.$$eval("#chart path[data-band]", (es) => [...new Set(es.map((e) => e.getAttribute("data-band")))]);

/** Where on the screen time t and fraction y of the plot's height are. */
async function screenAt(page, t, y) {
  return page.evaluate(([t, y]) => {
    const D = window.hpgraph.data(), P = D.plot, w = window.hpgraph.window();
    const svg = document.querySelector("#chart svg"), m = svg.getScreenCTM(), p = svg.createSVGPoint();
    p.x = P.x + (t - w[0]) / (w[1] - w[0]) * P.w;
    p.y = P.y + P.h * (1 - y);
    const s = p.matrixTransform(m);
    return { x: s.x, y: s.y };
  }, [t, y]);
}

async function dragTimes(page, t0, t1) {
  const a = await screenAt(page, t0, 0.5), b = await screenAt(page, t1, 0.5);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, a.y, { steps: 3 });
  await page.mouse.move(b.x, b.y, { steps: 3 });
  await page.mouse.up();
}

/** The table's rows: {name, cells, class}. */
const tableRows = (page) => page.$$eval("#summary tbody tr[data-band]", (rs) => rs.map((r) => ({
  name: r.getAttribute("data-band"), class: r.className, cells: [...r.cells].map((c) => c.textContent)
})));

// A run with 25 steady bands and one that holds a lot for a few censuses only: over
// the whole run it is the smallest of all, in OTHER; in its window, the largest.
const lines = ['JOB "window"', 'DATE "d"', 'SAMPLE_UNIT "seconds"', 'VALUE_UNIT "bytes"'];
for (let i = 0; i < 100; i++) {
  const t = (i / 10).toFixed(2);
  lines.push(`BEGIN_SAMPLE ${t}`);
  for (let k = 0; k < 25; k++) lines.push(`steady/s${k}/main\t${1000 + 10 * k}`);
  if (i >= 60 && i < 65) lines.push("spike/burst/main\t8000");
  lines.push(`END_SAMPLE ${t}`);
}
writeFileSync(join(work, "window.hp"), lines.join("\n") + "\n");

const browser = await launch();
try {
  // ---- the window re-ranks the key and the table ----
  {
    const hp = join(work, "window.hp"), samples = readHp(hp);
    const { page, problems } = await open(browser, render(hp, join(work, "window.html")));
    const spike = "spike/burst/main";
    const before = await keyNames(page);
    check(!before.includes(spike) && before.includes("OTHER"), `window: over the whole run ${spike} is in OTHER (key: ${before.length} entries)`);
    await dragTimes(page, 5.75, 6.65);
    const after = await keyNames(page);
    check(after.includes(spike), `window: zoomed on 5.75-6.65 s the key lists ${spike}`);
    check(after.length === before.length, `window: the key keeps its ${before.length} entries (${after.length})`);
    check((await drawnNames(page)).includes(spike), "window: the spike is drawn as a band of its own");
    const [a, b] = await page.evaluate(() => window.hpgraph.window());
    // The table follows the chart when the browser is idle: wait for it to state the window.
    await page.waitForFunction((a) => document.getElementById("summary").dataset.from === String(a), a, { timeout: 5000 }).catch(() => {});
    const rows = await tableRows(page);
    const row = rows.find((r) => r.name === spike);
    const want = area(samples, (s) => s.values.get(spike) || 0, a, b) / area(samples, total, a, b);
    check(row && row.cells[2] === (100 * want).toFixed(1) + "%",
      `window: the table gives the window's share of ${spike}: ${row && row.cells[2]}, the .hp says ${(100 * want).toFixed(1)}%`);
    check(row && row.cells[3] === "8.00 kB", `window: its peak there is 8.00 kB (${row && row.cells[3]})`);
    check((await page.textContent("#table-window")).startsWith("the window "), "window: the table says which window its numbers are for");
    await page.dblclick("#chart svg", { position: { x: 300, y: 200 } });
    check(!(await keyNames(page)).includes(spike), "window: a double-click shows the whole run's key again");

    // ---- the filter box ----
    await page.fill("#filter", "steady/s1");
    const filtered = await keyNames(page);
    const match = [...samples[0].values.keys()].filter((n) => /steady\/s1/i.test(n));
    check(filtered.length === match.length && filtered.every((n) => match.includes(n)),
      `filter: the key holds the ${match.length} matching bands (${filtered.length})`);
    const drawn = await drawnNames(page);
    check(drawn.length === match.length && drawn.every((n) => match.includes(n)), `filter: only matching bands are drawn (${drawn.filter((n) => !match.includes(n))})`);
    // The table follows the chart when the browser is idle.
    const listed = await page.waitForFunction((n) => document.querySelectorAll("#summary tbody tr[data-band]").length === n, match.length, { timeout: 5000 })
      .then(() => match.length, () => -1);
    check(listed === match.length, "filter: the table lists only matching bands");
    check((await page.textContent("#filter-note")).startsWith(`${match.length} of 26`), `filter: the note counts them (${await page.textContent("#filter-note")})`);
    await page.fill("#filter", "steady/(");
    check(await page.getAttribute("#filter", "aria-invalid") === "true", "filter: a broken expression is marked");
    check((await drawnNames(page)).length === match.length, "filter: a broken expression leaves the chart as it was");
    await page.fill("#filter", "");
    check((await keyNames(page)).length === before.length, "filter: emptied, the whole key is back");

    // ---- the three views ----
    const yLabels = () => page.evaluate(() => {
      const P = window.hpgraph.data().plot;
      return [...document.querySelectorAll("#chart .tick-label")]
        .filter((t) => Number(t.getAttribute("x")) < P.x).map((t) => t.textContent);
    });
    await page.selectOption("#view", "share");
    const shares = await yLabels();
    check(shares.includes("75%") && shares.includes("50%"), `views: share has a percent axis (${shares.join(" ")})`);
    const tops = await page.evaluate(() => {
      // Every census's stack reaches the top: the highest band's outline touches it.
      const P = window.hpgraph.data().plot;
      const ys = [...document.querySelectorAll("#chart path[data-band]")].map((p) => p.getBBox().y);
      return Math.min(...ys) - P.y;
    });
    check(Math.abs(tops) < 0.5, `views: in share every census fills the graph (top ${tops.toFixed(2)})`);
    // The y axis's labels say what the view measures: shares.
    const shareLabels = await page.evaluate(() => {
      const P = window.hpgraph.data().plot;
      return [...document.querySelectorAll("#chart .tick-label")]
        .filter((t) => Number(t.getAttribute("x")) < P.x).map((t) => t.textContent);
    });
    check(shareLabels.length >= 3 && shareLabels.every((t) => t.endsWith("%")), `views: the y axis says shares (${shareLabels.join(" ")})`);
    await page.selectOption("#view", "lines");
    const linesDrawn = await page.$$eval("#chart path.band-line", (ps) => ps.length);
    check(linesDrawn === before.length, `views: lines draws ${linesDrawn} lines, one per key entry`);
    const top = await page.evaluate(() => {
      const P = window.hpgraph.data().plot;
      return Math.max(...[...document.querySelectorAll("#chart .tick-label")]
        .filter((t) => Number(t.getAttribute("x")) < P.x).map((t) => parseFloat(t.textContent)));
    });
    // The largest single band is OTHER (14 bands of about 1.1 kB): the axis reaches it,
    // not the stacked total of 26 kB.
    check(top < 20, `views: lines are not stacked (axis up to ${top} kB)`);
    await page.selectOption("#view", "stacked");
    check((await yLabels()).some((l) => l.endsWith("kB")), "views: back to stacked bytes");
    check(problems.length === 0, `window: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }

  // ---- marks and heap lines, from a GHC 9.10 eventlog ----
  {
    const log = join(root, "fixtures/eventlog-9.10/Markers-hc.eventlog");
    const { page, problems } = await open(browser, render(log, join(work, "markers.html"), "--heap-lines"));
    const labels = await page.$$eval("#chart .mark-label", (ts) => ts.map((t) => t.textContent));
    const lines = await page.$$eval("#chart .mark-line", (ls) => ls.length);
    const texts = ["start", "built 20000 Kätzchen", "weighed", "done (twice the work)"];
    check(lines >= 1 && labels.length >= 1 && labels.every((l) => texts.some((t) => t.startsWith(l.replace("…", "")))),
      `marks: ${lines} lines, labelled ${JSON.stringify(labels)}`);
    const key = await page.$$eval("#key li.line", (ls) => ls.map((l) => l.textContent));
    check(key.includes("heap size") && key.includes("live bytes"), `heap lines: named in the key (${key.join(", ")})`);
    check(await page.locator('#chart path.heap-line[data-line="heap size"]').count() === 1, "heap lines: the heap size is drawn");
    check(problems.length === 0, `marks: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }

  // ---- a click opens the census's flame graph; the table sorts ----
  {
    const hp = join(root, "fixtures/profiles/ManyCC-hc.hp"), samples = readHp(hp);
    const { page, problems } = await open(browser, render(hp, join(work, "manycc.html")));
    const at = await screenAt(page, samples[Math.floor(samples.length / 2)].time, 0.3);
    await page.mouse.click(at.x, at.y);
    check(await page.isVisible("#flame"), "flame: a click on the chart opens the flame graph");
    const time = Number(await page.getAttribute("#flame", "data-time"));
    const census = samples.find((s) => s.time === time);
    const frames = await page.$$eval("#flame g.frame", (gs) => gs.map((g) => ({
      stack: g.getAttribute("data-stack"), bytes: Number(g.getAttribute("data-bytes")), own: Number(g.getAttribute("data-own"))
    })));
    const rootFrame = frames.find((f) => f.stack === "all");
    check(census && rootFrame && rootFrame.bytes === total(census),
      `flame: the root holds the census at ${time} s: ${rootFrame && rootFrame.bytes}, the .hp says ${census && total(census)}`);
    const own = frames.reduce((s, f) => s + f.own, 0);
    check(own === total(census), `flame: the frames' own bytes add up to the census (${own})`);
    const deep = frames.filter((f) => f.stack.includes("/")).sort((x, y) => y.bytes - x.bytes)[0];
    await page.hover(`#flame g.frame[data-stack="${deep.stack.replace(/["\\]/g, "\\$&")}"] rect`);
    check((await page.textContent("#flame-info")).startsWith(deep.stack), `flame: hovering a frame names its stack (${deep.stack})`);
    await page.click(`#flame g.frame[data-stack="${deep.stack.replace(/["\\]/g, "\\$&")}"] rect`);
    check((await page.textContent("#flame-title")).includes("within " + deep.stack), "flame: a click zooms into the frame");
    const widest = await page.$eval(`#flame g.frame[data-stack="${deep.stack.replace(/["\\]/g, "\\$&")}"] rect`, (r) => Number(r.getAttribute("width")));
    const full = await page.$eval("#flame-svg", (s) => s.viewBox.baseVal.width);
    check(widest >= full - 1, `flame: the zoomed frame spans the width (${widest} of ${full})`);

    // Sorted by growth, steepest first (by each cell's exact number); "growing" only
    // where the rule in docs/inspect.md says — a line through the last 60% of the run's
    // body (at least 8 samples; its teardown left out) that rises by > 5% of the band's
    // peak and > 1% of the heap's, with a slope 2.5 standard errors from flat (a t-test:
    // t = r√(n−2)/√(1−r²)) — computed here from the .hp text.
    // A real leak's run, of enough censuses for a trend: statistics in lazy record
    // fields (fixtures/programs/Records.hs) under GHC 9.0.2's profiling runtime.
    check(problems.length === 0, `flame: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }
  {
    const hp = join(root, "fixtures/leak/ghc-9.0.2/Records-hc.hp"), samples = readHp(hp);
    const { page, problems } = await open(browser, render(hp, join(work, "records.html")));
    // Sorted from the keyboard: the heading takes the focus, Enter sorts.
    await page.focus('#summary th[data-sort="growth"]');
    await page.keyboard.press("Enter");
    const rows = await tableRows(page);
    const growthValues = await page.$$eval("#summary tbody tr[data-band]", (rs) => rs.map((r) => Number(r.cells[6].dataset.value)));
    check(growthValues.every((g, i) => i === 0 || growthValues[i - 1] >= g), `table: sorted by growth from the keyboard, steepest first (${rows.slice(0, 3).map((r) => r.name).join(", ")})`);
    const T = samples.map((s) => s.time), heapPeak = Math.max(...samples.map(total));
    let end = T.length;
    while (end > 3 && total(samples[end - 1]) === 0) end--;
    // The teardown: the highest census in the last third of the time (the last of
    // equals), at least 80% of the run's highest, and a last census at most half of it.
    const totals = samples.slice(0, end).map(total);
    let top = -1;
    totals.forEach((v, k) => { if (T[k] >= T[end - 1] - (T[end - 1] - T[0]) / 3 && (top < 0 || v >= totals[top])) top = k; });
    if (top >= 2 && top + 1 < end && totals[top] > 0 && totals[top] >= 0.8 * Math.max(...totals) && totals[end - 1] <= totals[top] / 2) end = top + 1;
    check(end >= 16, `table: the hunt's run has a body of ${end} censuses, enough to judge`);
    const since = T[end - 1] - (T[end - 1] - T[0]) * 0.6;
    const j0 = Math.min(T.findIndex((t) => t >= since), end - 8);
    const rule = (name) => {
      const all = samples.map((s) => s.values.get(name) || 0), v = all.slice(j0, end), t = T.slice(j0, end), n = v.length;
      const mt = t.reduce((a, b) => a + b) / n, mv = v.reduce((a, b) => a + b) / n;
      let num = 0, den = 0, vv = 0;
      for (let i = 0; i < n; i++) { num += (t[i] - mt) * (v[i] - mv); den += (t[i] - mt) ** 2; vv += (v[i] - mv) ** 2; }
      const slope = num / den, r2 = vv > 0 ? num * num / (den * vv) : 0, peak = Math.max(...all);
      const tStat = r2 < 1 ? Math.sqrt(r2 * (n - 2) / (1 - r2)) : Infinity, fits = tStat >= 2.5 - 1e-9;
      const change = slope * (t[n - 1] - t[0]), least = Math.max(0.05 * peak, 0.01 * heapPeak);
      return peak > 0 && fits && change > least ? "growing" : peak > 0 && fits && change < -least ? "shrinking" : "flat";
    };
    const wrong = rows.filter((r) => r.class !== rule(r.name));
    check(wrong.length === 0, `table: trends as the rule says (${wrong.map((r) => r.name + ":" + r.class).join(", ")})`);
    check(rows.some((r) => r.class === "growing"), "table: the rule calls some band of the leak growing");
    check(rows.every((r) => r.cells.length === 9) && await page.locator("#summary td.spark svg polyline").count() === rows.length,
      "table: every row has a sparkline and nine cells");
    await page.click('#summary th[data-sort="name"]');
    const names = (await tableRows(page)).map((r) => r.name);
    check(names.join("\n") === [...names].sort().join("\n"), "table: a click on band sorts by name");
    check(problems.length === 0, `table: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }

  // ---- info-table provenance (-hi): the table's columns against ghc-events' reading
  // of the same eventlog (fixtures' .ipe files, scripts/ipe-oracle.hs) ----
  for (const dir of ["eventlog-9.6", "eventlog-9.10"]) {
    const log = join(root, `fixtures/${dir}/Leak-hi.eventlog`);
    const oracle = readFileSync(log.replace(/\.eventlog$/, ".ipe"), "utf8").trim().split("\n").map((l) => l.split("\t"));
    const { page, problems } = await open(browser, render(log, join(work, "hi.html")));
    const heads = await page.$$eval("#summary thead th", (ts) => ts.map((t) => t.textContent));
    check(["closure", "type", "module", "source"].every((h) => heads.includes(h)), `${dir} -hi: the table has the provenance columns`);
    const rows = await tableRows(page);
    let compared = 0;
    for (const r of rows) {
      const [closure, type, module, location] = r.cells.slice(9);
      const entry = oracle.find((o) => r.name.startsWith(`${o[4]} (${o[6]})`) && o[3] === type);
      if (!location) continue;
      compared++;
      check(entry && entry[5] === module && entry[6] === location && closure.length > 0,
        `${dir} -hi: ${r.name}: ${closure} ${type} ${module} ${location} as ghc-events reads it`);
    }
    check(compared >= 3, `${dir} -hi: ${compared} bands with provenance compared`);
    check(problems.length === 0, `${dir} -hi: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }

  // ---- a stack deeper than the page's flame graph draws: the rows stop at its limit,
  // the last frame holds all under it ----
  {
    const labels = Array.from({ length: 150 }, (_, i) => `f${i}`);
    writeFileSync(join(work, "deep.hp"), ['JOB "deep"', 'DATE "d"', 'SAMPLE_UNIT "seconds"', 'VALUE_UNIT "bytes"',
      "BEGIN_SAMPLE 0", `${labels.join("/")}\t4096`, "short/f149\t1024", "END_SAMPLE 0",
      "BEGIN_SAMPLE 1", `${labels.join("/")}\t8192`, "END_SAMPLE 1", ""].join("\n"));
    const { page, problems } = await open(browser, render(join(work, "deep.hp"), join(work, "deep.html"), "--flame=0"));
    const limit = await page.evaluate(() => window.hpgraph.maxFlameRows);
    const frames = await page.$$eval("#flame g.frame", (gs) => gs.map((g) => ({
      rows: g.querySelector("rect").getAttribute("y"), own: Number(g.getAttribute("data-own"))
    })));
    const rows = new Set(frames.map((f) => f.rows)).size;
    check(limit < 151 && rows === limit, `flame: a stack of 151 levels draws ${rows} rows, the limit ${limit}`);
    const own = frames.reduce((s, f) => s + f.own, 0);
    check(own === 5120, `flame: cut at the limit, the frames still hold the census (${own} of 5120)`);
    check(problems.length === 0, `deep: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }

  // ---- --flame opens the page with that census's flame graph ----
  {
    const hp = join(root, "fixtures/profiles/ManyCC-hc.hp"), samples = readHp(hp);
    const { page } = await open(browser, render(hp, join(work, "flame.html"), "--flame"));
    const peak = samples.reduce((m, s) => (total(s) > total(m) ? s : m));
    check(await page.isVisible("#flame") && Number(await page.getAttribute("#flame", "data-time")) === peak.time,
      `--flame: the page opens at the peak census (${peak.time} s)`);
    await page.close();
  }
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
finish("all leak-hunting page checks passed");
