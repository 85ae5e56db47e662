// A profile is untrusted input: its strings must never run as script in a page made
// from it. This plants markup and script in every string a profile carries — a .hp's
// JOB, DATE, SAMPLE_UNIT, VALUE_UNIT and band names; an eventlog's program arguments,
// band names and marker texts — and checks in a real headless Chromium, for the HTML
// page, the page of --serve and the SVG opened as a document, that no script runs
// (nothing sets window.__pwned, no dialog opens) and that each string shows literally.
//
//   node tests/browser/hostile.mjs [HPGRAPH]      (default target/release/hpgraph)

import { execFileSync, spawn } from "node:child_process";
import { writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { check, finish, hpgraph, root, scratch, launch } from "./harness.mjs";

const work = scratch("hostile");

// Each one runs `window.__pwned = N` if the page ever treats it as markup or script.
const attack = (n) => [
  `<img src=x onerror="window.__pwned=${n}">`,
  `</script><script>window.__pwned=${n}</script>`,
  `"><svg onload="window.__pwned=${n}">`,
  `'><iframe srcdoc="<script>parent.__pwned=${n}</script>">`,
][n % 4];

// ---- a .hp with an attack in every string ----
const hp = {
  job: attack(1), date: attack(2), sampleUnit: attack(3), valueUnit: attack(4),
  bands: [attack(5), attack(6), `x ${attack(7)}`],
};
const quote = (s) => s.replace(/"/g, '""');
let text = `JOB "${quote(hp.job)}"\nDATE "${quote(hp.date)}"\n` +
  `SAMPLE_UNIT "${quote(hp.sampleUnit)}"\nVALUE_UNIT "${quote(hp.valueUnit)}"\n`;
for (let i = 0; i < 6; i++) {
  text += `BEGIN_SAMPLE ${i}.0\n`;
  hp.bands.forEach((b, k) => { text += `${b}\t${(k + 1) * 1000 * (i + 1)}\n`; });
  text += `END_SAMPLE ${i}.0\n`;
}
writeFileSync(join(work, "hostile.hp"), text);

// ---- an eventlog with attacks in its program arguments, band names and markers ----
function eventlog(args, bands, markers) {
  const out = [];
  const u16 = (v) => out.push((v >> 8) & 255, v & 255);
  const u32 = (v) => { u16(Math.floor(v / 65536)); u16(v & 65535); };
  const u64 = (v) => { u32(Math.floor(v / 2 ** 32)); u32(v % 2 ** 32); };
  const str = (s) => out.push(...Buffer.from(s, "utf8"));
  const VAR = 0xffff;
  const types = [[29, VAR], [30, VAR], [58, VAR], [160, VAR], [162, 8], [164, VAR], [165, 8]];
  str("hdrbhetb");
  for (const [id, size] of types) {
    str("etb\0"); u16(id); u16(size); u32(0); u32(0); str("ete\0");
  }
  str("hetehdredatb");
  const event = (id, ns, payload) => {
    u16(id); u64(ns);
    if (payload !== undefined) { u16(payload.length); out.push(...payload); }
  };
  const bytes = (f) => { const save = out.length; f(); return out.splice(save); };
  // a profiling runtime, whose JOB carries the program's arguments
  event(29, 0, bytes(() => { u32(1); str("GHC-9.6.6 rts_p"); }));
  event(30, 0, bytes(() => { u32(1); args.forEach((a) => { str(a); out.push(0); }); }));
  // heap profile begin: id, period, break-down 7 (closure type), five empty filters
  event(160, 0, bytes(() => { out.push(0); u64(1e8); u32(7); out.push(0, 0, 0, 0, 0); }));
  for (let i = 0; i < 5; i++) {
    const t = (i + 1) * 1e8;
    event(58, t - 5e7, bytes(() => str(markers[i % markers.length])));
    event(162, t); u64(i);
    bands.forEach((b, k) => event(164, t, bytes(() => { out.push(0); u64((k + 1) * 4096 * (i + 1)); str(b); out.push(0); })));
    event(165, t); u64(i);
  }
  u16(0xffff);
  return Buffer.from(out);
}
const ev = { args: ["prog", attack(8)], bands: [attack(9), attack(10)], markers: [attack(11), attack(12)] };
writeFileSync(join(work, "hostile.eventlog"), eventlog(ev.args, ev.bands, ev.markers));

function render(input, output, ...flags) {
  execFileSync(hpgraph, [input, "-o", output, ...flags], { cwd: work, stdio: ["ignore", "ignore", "inherit"] });
  return join(work, output);
}

/** Opens a page, counting dialogs and script errors; returns the page. */
async function open(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.dialogs = 0;
  page.on("dialog", (d) => { page.dialogs++; d.dismiss(); });
  await page.goto(url);
  return page;
}

/** Moves the pointer over every part of the chart and every mark, so that any
 * tooltip the page builds is built. */
async function sweep(page) {
  const box = await page.locator("#chart svg").boundingBox();
  // One real move (the browser's own input path), then the grid, each point's move
  // dispatched to the element under it: the page's handlers run for every point as for
  // the pointer, in one round trip rather than a frame's wait each.
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const points = [];
  for (let x = box.x; x < box.x + box.width; x += 12) {
    for (let y = box.y; y < box.y + box.height; y += 40) points.push([x, y]);
  }
  await page.evaluate(moveOver, points);
  const marks = page.locator("#chart .mark");
  for (let i = 0; i < await marks.count(); i++) await marks.nth(i).hover({ force: true });
}

/** The flame graph of a census (opened by a click on the chart, each frame hovered),
 * every view, a zoom that re-ranks the key and table, and the filter box: names show
 * as text, no script runs. */
async function flameAndControls(page, names, what) {
  const box = await page.locator("#chart svg").boundingBox();
  await page.mouse.click(box.x + box.width * 0.6, box.y + box.height * 0.6);
  const seen = [];
  for (const frame of await page.locator("#flame g.frame rect").all()) {
    await frame.hover({ force: true });
    seen.push(await page.textContent("#flame-info"));
  }
  const infos = seen.join("\n");
  // A band name is a stack split at "/": every part of it shows in some frame.
  for (const n of names) {
    const part = n.split("/").filter((p) => p.length > 3).sort((a, b) => b.length - a.length)[0] || n;
    check(infos.includes(part), `${what}: the flame graph shows ${JSON.stringify(part)} as text`);
  }
  for (const v of ["share", "lines", "stacked"]) { await page.selectOption("#view", v); await sweep(page); }
  await page.evaluate(() => { const w = window.hpgraph.window(); window.hpgraph.zoom(w[0] + (w[1] - w[0]) * 0.2, w[0] + (w[1] - w[0]) * 0.8); });
  await page.fill("#filter", ".");
  await page.click('#summary th[data-sort="name"]');
  await sweep(page);
  await noScriptRan(page, `${what} with its flame graph, views, zoom and filter`);
  const table = await page.$$eval("#summary tbody td.name", (cs) => cs.map((c) => c.textContent));
  for (const n of names) check(table.includes(n), `${what}: the zoomed table shows ${JSON.stringify(n)} as text`);
}

/**
 * In the page: for each point, the mouse's events (leaving the last element, entering and
 * moving over the one under the point, as the browser sends them) dispatched at that
 * point; returns the tooltip's text after each.
 */
function moveOver(points) {
  const tips = [];
  let last = null;
  for (const [x, y] of points) {
    const at = document.elementFromPoint(x, y);
    const init = { clientX: x, clientY: y, bubbles: true, cancelable: true, view: window };
    if (at !== last) {
      if (last) last.dispatchEvent(new MouseEvent("mouseout", { ...init, relatedTarget: at }));
      if (last && (!at || !last.contains(at))) last.dispatchEvent(new MouseEvent("mouseleave", { ...init, bubbles: false }));
      if (at) at.dispatchEvent(new MouseEvent("mouseover", { ...init, relatedTarget: last }));
    }
    if (at) at.dispatchEvent(new MouseEvent("mousemove", init));
    last = at;
    const tip = document.getElementById("tooltip");
    tips.push(tip ? tip.textContent : "");
  }
  return tips;
}

async function noScriptRan(page, what) {
  const pwned = await page.evaluate(() => window.__pwned);
  check(pwned === undefined && page.dialogs === 0, `${what}: no planted script ran (${pwned})`);
}

/** Every string shows, literally, somewhere in the page's text. */
async function shownLiterally(page, strings, what) {
  const body = await page.evaluate(() => document.body.innerText + document.title);
  for (const s of strings) check(body.includes(s), `${what}: shows ${JSON.stringify(s)} as text`);
}

/** The tooltip over a band names the band and its unit as text. */
async function tooltipShows(page, strings, what) {
  const box = await page.locator("#chart svg").boundingBox();
  const points = [];
  for (let x = box.x + box.width * 0.3; x < box.x + box.width * 0.8; x += 20) {
    for (let y = box.y + 20; y < box.y + box.height; y += 8) points.push([x, y]);
  }
  const seen = new Set(await page.evaluate(moveOver, points));
  const all = [...seen].join("\n");
  for (const s of strings) check(all.includes(s), `${what}: the tooltip shows ${JSON.stringify(s)} as text`);
}

const browser = await launch();
try {
  // The .hp page: every header string and band name.
  let page = await open(browser, pathToFileURL(render("hostile.hp", "hostile-hp.html")).href);
  await page.waitForFunction(() => window.hpgraph !== undefined, null, { timeout: 10000 });
  await sweep(page);
  await noScriptRan(page, ".hp page");
  await shownLiterally(page, [hp.job, hp.date, ...hp.bands], ".hp page");
  await tooltipShows(page, [...hp.bands, hp.sampleUnit], ".hp page");
  await flameAndControls(page, hp.bands, ".hp page");
  await page.close();

  // A root profile's page: its members (the roots named in the bands) in their table,
  // each chosen by a click.
  const roots = [attack(5), attack(6)];
  let rootsText = `JOB "p +RTS -ho -RTS"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n`;
  for (let i = 0; i < 4; i++) rootsText += `BEGIN_SAMPLE ${i}.0\n${roots[0]}\t10\n${roots[1]}\t20\n${roots.join("-")}\t30\nEND_SAMPLE ${i}.0\n`;
  writeFileSync(join(work, "roots.hp"), rootsText);
  page = await open(browser, pathToFileURL(render("roots.hp", "roots.html")).href);
  await page.waitForFunction(() => window.hpgraph !== undefined, null, { timeout: 10000 });
  const members = await page.$$eval("#members-table tbody td.name", (tds) => tds.map((td) => td.textContent));
  check(roots.every((r) => members.includes(r)), "root profile page: each root named literally in the members' table");
  for (let k = 0; k < 2; k++) await page.click(`#members-table tr[data-row="${k}"]`);
  await noScriptRan(page, "root profile page");
  await page.close();

  // The eventlog page: program arguments (the title), band names, marker texts.
  page = await open(browser, pathToFileURL(render("hostile.eventlog", "hostile-ev.html")).href);
  await page.waitForFunction(() => window.hpgraph !== undefined, null, { timeout: 10000 });
  await sweep(page);
  await noScriptRan(page, "eventlog page");
  await shownLiterally(page, [ev.args[1], ...ev.bands], "eventlog page");
  const marks = await page.locator("#chart .mark").count();
  const texts = [];
  for (let i = 0; i < marks; i++) {
    await page.locator("#chart .mark").nth(i).hover({ force: true });
    texts.push(await page.evaluate(() => document.getElementById("tooltip").textContent));
  }
  for (const m of ev.markers) check(texts.includes(m), `eventlog page: a mark's tooltip shows ${JSON.stringify(m)}`);
  await flameAndControls(page, ev.bands, "eventlog page");
  await page.close();

  // The page of --compare: the .hp profile against itself, every name in both runs.
  execFileSync(hpgraph, ["--compare", "hostile.hp", "hostile.hp", "-t0", "-o", "hostile-compare.html"],
    { cwd: work, stdio: ["ignore", "ignore", "inherit"] });
  page = await open(browser, pathToFileURL(join(work, "hostile-compare.html")).href);
  await page.waitForFunction(() => window.hpgraph !== undefined, null, { timeout: 10000 });
  await sweep(page);
  await page.fill("#filter", ".");
  await noScriptRan(page, "comparison page");
  await shownLiterally(page, hp.bands, "comparison page");
  await page.close();

  // The SVG opened as a document: its text is text.
  for (const [input, strings] of [["hostile.hp", [...hp.bands]], ["hostile.eventlog", ev.bands]]) {
    page = await open(browser, pathToFileURL(render(input, `${input}.svg`, "--style", "modern")).href);
    await page.waitForTimeout(300);
    await noScriptRan(page, `${input} as SVG`);
    const shown = await page.evaluate(() => document.documentElement.textContent);
    for (const s of strings) check(shown.includes(s), `${input} as SVG: shows ${JSON.stringify(s)} as text`);
    await page.close();
  }

  // The page of --serve, updated in place from the server.
  const child = spawn(hpgraph, ["--serve", "127.0.0.1:0", "--quiet", "hostile.hp"], { cwd: work, stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise((ok, fail) => {
    let err = "";
    child.stderr.on("data", (d) => { err += d; const m = err.match(/serving (http:\/\/\S+)\s/); if (m) ok(m[1]); });
    child.on("exit", (code) => fail(new Error(`hpgraph --serve exited with ${code}: ${err}`)));
  });
  try {
    page = await open(browser, url);
    // Connected, the page swaps in the server's current picture: swept before, the chart
    // can be replaced under the pointer (a locator of a removed element has no box).
    await page.waitForFunction(() => window.hpgraph && window.hpgraph.data() && window.hpgraph.updates() > 0, null, { timeout: 10000 });
    const csp = (await (await fetch(url)).headers.get("content-security-policy")) || "";
    check(!csp.includes("unsafe-inline'; img") && !/script-src[^;]*unsafe-inline/.test(csp) && csp.includes("frame-ancestors 'none'"),
      `served page: its policy allows no inline script and no framing (${csp})`);
    await sweep(page);
    await noScriptRan(page, "served page");
    await shownLiterally(page, [hp.job, ...hp.bands], "served page");
    await page.close();
  } finally {
    child.kill("SIGINT");
  }
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
finish("hostile strings: every check passed");
