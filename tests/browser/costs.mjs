// The page of a time and allocation profile in a real headless Chromium: its table of
// cost-centre stacks read from the page's cells as a reader sees them, against GHC's own
// report text (`-P`: entries, ticks and bytes per stack; inherited figures summed here over
// the report's indented tree) and against ghc-events' reading of an eventlog's samples
// (the `.samples` files beside the fixtures); the measure switch weighs the flame graph
// by the report's column totals; sorting and folding do what a reader expects.
//
//   node tests/browser/costs.mjs [HPGRAPH]      (default target/release/hpgraph)

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { check, finish, open, render, root, scratch, launch } from "./harness.mjs";

const work = scratch("costs");
const fixtures = join(root, "fixtures/prof");

/** GHC's `-P` report's tree: each line's path of `Module.label`, entries, ticks, bytes. */
function readReport(text) {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => /^COST CENTRE +MODULE +SRC +no\. +entries/.test(l));
  const head = lines[at], moduleCol = head.indexOf("MODULE"), srcCol = head.indexOf("SRC");
  const rows = [], path = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.trim()) continue;
    const depth = line.length - line.trimStart().length;
    const label = line.slice(depth, moduleCol).trim(), module = line.slice(moduleCol, srcCol).trim();
    const numbers = line.slice(srcCol).trim().split(/\s+/).slice(-8).map(Number);
    path.length = depth;
    path.push(`${module}.${label}`);
    rows.push({ path: path.join(";"), depth, entries: numbers[1], ticks: numbers[6], bytes: numbers[7] });
  }
  // Inherited: each line's own and every line under it.
  rows.forEach((r, k) => {
    r.inhTicks = r.ticks; r.inhBytes = r.bytes;
    for (let j = k + 1; j < rows.length && rows[j].depth > r.depth; j++) { r.inhTicks += rows[j].ticks; r.inhBytes += rows[j].bytes; }
  });
  return rows;
}

/** The table as the page shows it, every row unfolded: each row's path and its cells' values by heading. */
async function readTable(page) {
  return page.evaluate(() => {
    window.hpgraph.costs().openAll();
    const table = document.getElementById("costs"), heads = [...table.tHead.rows[0].cells].map((c) => c.textContent);
    const path = [];
    return [...table.tBodies[0].rows].filter((tr) => tr.dataset.row !== undefined).map((tr) => {
      const depth = Number(tr.dataset.depth), cells = [...tr.cells];
      path.length = depth;
      path.push(cells[0].querySelector(".stack > span:last-child").textContent);
      const row = { path: path.join(";"), source: cells[1].textContent };
      cells.forEach((c, k) => { if (c.dataset.value !== undefined) row[heads[k]] = Number(c.dataset.value); });
      return row;
    });
  });
}

/** WCAG's contrast ratio of two `#rrggbb` colours. */
function contrast(a, b) {
  const lum = (hex) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

const flameRoot = (page) => page.evaluate(() => Number(document.querySelector("#flame-svg g.frame").dataset.bytes));

const browser = await launch();
try {
  for (const [ghc, name] of [["ghc-9.0.2", "MapFib-P"], ["ghc-9.6.6", "MapFib-P"], ["ghc-9.10.3", "MapFib-P"], ["pandoc-ghc-9.0.2", "Pandoc-P"]]) {
    const prof = join(fixtures, ghc, `${name}.prof`), label = `${ghc} ${name}`;
    const ghcRows = readReport(readFileSync(prof, "utf8"));
    const { page, problems } = await open(browser, render(prof, join(work, `${ghc}-${name}.html`)));
    const rows = await readTable(page);
    check(rows.length === ghcRows.length, `${label}: the table lists ${rows.length} stacks, the report ${ghcRows.length}`);
    const byPath = new Map(ghcRows.map((r) => [r.path, r]));
    let wrong = [];
    for (const r of rows) {
      const g = byPath.get(r.path);
      if (!g) { wrong.push(`${r.path}: not in the report`); continue; }
      const pairs = [["entries", g.entries], ["individual time", g.ticks], ["individual alloc", g.bytes], ["inherited time", g.inhTicks], ["inherited alloc", g.inhBytes]];
      for (const [col, want] of pairs) if (r[col] !== want) wrong.push(`${r.path} ${col}: ${r[col]}, the report ${want}`);
    }
    check(wrong.length === 0, `${label}: every row's entries, ticks and bytes, individual and inherited, are the report's (${wrong.slice(0, 3).join("; ")})`);
    // Every frame's label reads on its box (WCAG AA: a contrast of 4.5 or more).
    const labels = await page.evaluate(() => [...document.querySelectorAll("#flame-svg g.frame")].filter((g) => g.querySelector("text") && g.querySelector("rect").getAttribute("fill-opacity") === "1")
      .map((g) => [g.querySelector("rect").getAttribute("fill"), g.querySelector("text").getAttribute("fill"), g.querySelector("text").textContent]));
    const faint = labels.filter(([fill, ink]) => /^#[0-9a-f]{6}$/i.test(fill) && contrast(fill, ink.length === 4 ? "#" + [...ink.slice(1)].map((c) => c + c).join("") : ink) < 4.5);
    check(labels.length > 3 && faint.length === 0, `${label}: every one of ${labels.length} flame labels reads on its box (${faint.slice(0, 3).map((f) => f.join(" on ")).join("; ")})`);
    // The flame graph in each measure spans the report's column total.
    const sum = (k) => ghcRows.reduce((s, r) => s + r[k], 0);
    check(await flameRoot(page) === sum("ticks"), `${label}: the flame graph weighs ${await flameRoot(page)} ticks, the report's column ${sum("ticks")}`);
    for (const [measure, column] of [["alloc", "bytes"], ["entries", "entries"]]) {
      await page.selectOption("#measure", { label: `${measure} (${column})` });
      const got = await flameRoot(page), title = await page.textContent("#flame-title");
      check(got === sum(column) && title.includes(`by ${measure}`), `${label}: weighed by ${measure}, the flame graph spans ${got}, the report's column ${sum(column)} ("${title}")`);
    }
    // Sorting a stack's callees by entries (from the keyboard: the heading takes the
    // focus, Space sorts), and folding the root.
    await page.focus("#costs th:text-is('entries')");
    await page.keyboard.press(" ");
    // Every row's callees, in the order shown, by entries: largest first.
    const groups = await page.evaluate(() => {
      const open = [], out = [];
      for (const tr of document.querySelectorAll("#costs tbody tr[data-row]")) {
        const d = Number(tr.dataset.depth), v = Number(tr.cells[tr.cells.length - 1].dataset.value);
        open.length = d + 1;
        (open[d] = open[d] || []).push(v);
        if (open[d].length === 1) out.push(open[d]);
      }
      return out.filter((g) => g.length > 1);
    });
    const unsorted = groups.filter((g) => g.some((v, k) => k > 0 && g[k - 1] < v));
    const varied = groups.filter((g) => new Set(g).size > 1).length;
    check(varied > 0 && unsorted.length === 0, `${label}: sorted by entries, each stack's callees go largest first (${varied} groups of differing callees; out of order: ${JSON.stringify(unsorted.slice(0, 2))})`);
    await page.click("#costs tbody tr[data-depth='0'] button.fold");
    const left = await page.evaluate(() => document.querySelectorAll("#costs tbody tr[data-row]").length);
    check(left === 1, `${label}: folding the root leaves ${left} row`);
    check(problems.length === 0, `${label}: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }

  // Eventlog samples: one measure (time), each stack's samples as ghc-events counts them.
  for (const ghc of ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"]) {
    const dir = join(fixtures, ghc), label = `${ghc} MapFib-samples`;
    const names = new Map(), counts = new Map(), times = [], stamped = [], sources = new Map();
    let samples = 0;
    for (const line of readFileSync(join(dir, "MapFib-samples.samples"), "utf8").split("\n")) {
      const f = line.split("\t");
      if (f[0] === "cc") { names.set(f[1], `${f[2]}.${f[3]}`); sources.set(`${f[2]}.${f[3]}`, f[4]); }
      if (f[0] === "sample") {
        const path = f[4].split(",").reverse().map((id) => names.get(id)).join(";");
        counts.set(path, (counts.get(path) || 0) + 1);
        times.push(Number(f[1]));
        stamped.push([Number(f[1]), path]);
        samples++;
      }
    }
    // A window from a quarter to three quarters of the samples, its edges between two samples.
    times.sort((a, b) => a - b);
    const edge = (k) => Math.floor((times[k] + times[k + 1]) / 2);
    const [from, to] = [edge(times.length >> 2), edge((times.length * 3) >> 2)];
    const within = times.filter((t) => t >= from && t <= to).length;
    {
      const { page } = await open(browser, render(join(dir, "MapFib-samples.eventlog"), join(work, `${ghc}-window.html`), "--from", String(from / 1e9), "--to", String(to / 1e9)));
      const title = await page.textContent("#flame-title"), about = await page.textContent(".about");
      check(await flameRoot(page) === within && title.startsWith("The samples from") && about.includes(`, ${within} ticks`),
        `${label} --from --to: the page weighs ${await flameRoot(page)} samples, ghc-events reads ${within} in the window ("${title}"; "${about}")`);
      await page.close();
    }
    const { page, problems } = await open(browser, render(join(dir, "MapFib-samples.eventlog"), join(work, `${ghc}-samples.html`)));
    // A stretch of the strip, chosen by dragging across it: the flame graph and the table
    // weigh the samples ghc-events reads between its edges, stack by stack.
    const strip = await page.locator("#strip-svg").boundingBox();
    await page.mouse.move(strip.x + strip.width * 0.3, strip.y + 10);
    await page.mouse.down();
    await page.mouse.move(strip.x + strip.width * 0.5, strip.y + 10, { steps: 4 });
    await page.mouse.move(strip.x + strip.width * 0.7, strip.y + 10, { steps: 4 });
    await page.mouse.up();
    const chosen = await page.evaluate(() => { const s = document.getElementById("strip-svg").dataset, e = window.hpgraph.data().tree.strip.edges; return { b0: +s.from, b1: +s.to, edges: e }; });
    const [lo, hi, last] = [chosen.edges[chosen.b0], chosen.edges[chosen.b1 + 1], chosen.b1 === chosen.edges.length - 2];
    const inStretch = new Map();
    for (const [t, path] of stamped) if (t / 1e9 >= lo && (t / 1e9 < hi || (last && t / 1e9 <= hi))) inStretch.set(path, (inStretch.get(path) || 0) + 1);
    const stretchRows = await readTable(page), inAll = [...inStretch.values()].reduce((a, b) => a + b, 0);
    const off = [...inStretch].filter(([path, n]) => !stretchRows.some((r) => r.path === path && r["individual time"] === n));
    const title = await page.textContent("#flame-title");
    check(chosen.b1 > chosen.b0 && inAll > 0 && await flameRoot(page) === inAll && off.length === 0 && title.startsWith("The samples from"),
      `${label}: dragged over stretches ${chosen.b0}-${chosen.b1} of the strip, the flame graph weighs ${await flameRoot(page)} samples, ghc-events reads ${inAll} there, every stack's own as counted (${off.slice(0, 2).map((w) => w.join(" ")).join("; ")})`);
    await page.locator("#strip-svg").dblclick();
    check(await flameRoot(page) === samples, `${label}: a double-click on the strip weighs all ${samples} samples again (${await flameRoot(page)})`);
    const rows = await readTable(page);
    const hidden = await page.evaluate(() => document.getElementById("measure").parentNode.hidden);
    check(hidden, `${label}: samples have one measure, so no switch`);
    const wrong = [...counts].filter(([path, n]) => !rows.some((r) => r.path === path && r["individual time"] === n));
    const roots = rows.filter((r) => !r.path.includes(";")).reduce((s, r) => s + r["inherited time"], 0);
    check(wrong.length === 0, `${label}: every stack's own samples are ghc-events' count (${wrong.slice(0, 3).map((w) => w.join(" ")).join("; ")})`);
    const unsourced = rows.filter((r) => r.source !== sources.get(r.path.split(";").pop()));
    check(rows.length > 3 && unsourced.length === 0, `${label}: each stack's source is its cost centre's as ghc-events reads it (${unsourced.slice(0, 2).map((r) => r.path + " " + r.source)})`);
    check(roots === samples && await flameRoot(page) === samples, `${label}: the roots hold ${roots} samples, the flame graph ${await flameRoot(page)}, ghc-events reads ${samples}`);
    check(problems.length === 0, `${label}: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }

  // A -pj report whose names and sources plant markup: the table and flame graph show them as text.
  const attack = (n) => [`<img src=x onerror="window.__pwned=${n}">`, `</script><script>window.__pwned=${n}</script>`, `"><svg onload="window.__pwned=${n}">`][n % 3];
  const centres = [[1, "MAIN", "MAIN", "<built-in>"], [2, attack(0), attack(1), attack(2)], [3, `x ${attack(1)}`, "Main", `y ${attack(0)}`]];
  // GHC's own layout: a key per line, each cost centre and node as GHC spaces them.
  const q = (x) => JSON.stringify(x);
  const node = (id, entries, alloc, ticks, kids) => `{"id": ${id}, "entries": ${entries}, "alloc": ${alloc}, "ticks": ${ticks}, "children": [${kids}]}`;
  const json = `{\n"program": "p",\n"arguments": ["./p"],\n"rts_arguments": ["-pj"],\n"end_time": "d",\n"initial_capabilities": 0,\n` +
    `"total_time":        0.01,\n"total_ticks": 10,\n"tick_interval": 1000,\n"total_alloc":300,\n"cost_centres": [\n` +
    centres.map(([id, label, module, src]) => `{"id": ${id}, "label": ${q(label)}, "module": ${q(module)}, "src_loc": ${q(src)}, "is_caf": false}`).join(", ") +
    `],\n"profile": ${node(1, 0, 0, 0, node(2, 1, 100, 4, node(3, 2, 200, 6, "")))}}\n`;
  writeFileSync(join(work, "hostile.prof"), json);
  const { page, problems } = await open(browser, render(join(work, "hostile.prof"), join(work, "hostile.html")));
  await readTable(page);
  await page.selectOption("#measure", { label: "alloc (bytes)" });
  await page.check("#flame-inverted");
  await page.click("#costs th:text-is('cost centre')");
  const shown = await page.evaluate(() => [document.getElementById("costs").innerText, [...document.querySelectorAll("#flame-svg title")].map((t) => t.textContent).join("\n"), window.__pwned]);
  check(shown[2] === undefined, `hostile report: no planted script ran (${shown[2]})`);
  for (const [, label, module, src] of centres.slice(1)) {
    check(shown[0].includes(`${module}.${label}`) && shown[0].includes(src), `hostile report: the table shows ${JSON.stringify(module + "." + label)} and its source as text`);
    check(shown[1].includes(`${module}.${label}`), `hostile report: the flame graph names ${JSON.stringify(module + "." + label)} as text`);
  }
  check(problems.length === 0, `hostile report: no console error and no request (${problems.join("; ")})`);
  await page.close();
} finally {
  await browser.close();
}
finish("cost pages: the table is GHC's report and ghc-events' samples, the measures weigh the flame graph");
