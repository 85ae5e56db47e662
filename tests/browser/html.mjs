// Drives hpgraph's HTML page in a real headless Chromium (Debian's, through
// playwright-core) and checks what a reader does with it: hover over a band to see its
// name and value, click a key entry to hide a band, drag to zoom, double-click to reset,
// hover over a mark to read its text. The values the tooltip shows are checked against
// the .hp text read here, line by line, not against hpgraph's own reading.
//
//   node tests/browser/html.mjs [HPGRAPH]      (default target/release/hpgraph)
//
// Exits 1 on the first failed check, saying which.

import { execFileSync } from "node:child_process";
import { readFileSync, statSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readHp } from "./hp.mjs";
import { check, finish, open, render, root, scratch, launch } from "./harness.mjs";

const gen = join(root, "target/release/examples/gen-profile");
const work = scratch("html");

const attr = (name) => `[data-band="${name.replace(/["\\]/g, "\\$&")}"]`;

/** Hovers over each named band and checks the tooltip against `expected(time, name)`. */
async function hoverBands(page, names, expected, label) {
  for (const name of names) {
    await page.locator(`#chart path${attr(name)}`).hover({ timeout: 5000 });
    const tip = await page.evaluate(() => {
      const t = document.getElementById("tooltip");
      return { hidden: t.hidden, text: t.textContent, ...t.dataset };
    });
    const want = expected(Number(tip.time), name);
    check(!tip.hidden && tip.band === name && tip.text.includes(name),
      `${label}: hover over ${name} names it in #tooltip`);
    check(want !== undefined && Number(tip.value) === want,
      `${label}: hover over ${name} at ${tip.time} s shows ${tip.value}, the .hp says ${want}`);
  }
}

async function xLabels(page) {
  return page.evaluate(() => {
    const P = window.hpgraph.data().plot;
    return [...document.querySelectorAll("#chart .tick-label")]
      .filter((t) => Number(t.getAttribute("y")) > P.y + P.h)
      .map((t) => t.textContent);
  });
}

/** Drags across the plot from fraction f0 to f1 of its width. */
async function dragAcross(page, f0, f1) {
  const box = await page.evaluate(() => {
    const P = window.hpgraph.data().plot;
    const svg = document.querySelector("#chart svg");
    const m = svg.getScreenCTM();
    const at = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(m); };
    const a = at(P.x, P.y + P.h / 2), b = at(P.x + P.w, P.y + P.h / 2);
    return { x0: a.x, x1: b.x, y: a.y };
  });
  const x = (f) => box.x0 + (box.x1 - box.x0) * f;
  await page.mouse.move(x(f0), box.y);
  await page.mouse.down();
  await page.mouse.move(x((f0 + f1) / 2), box.y, { steps: 4 });
  await page.mouse.move(x(f1), box.y, { steps: 4 });
  await page.mouse.up();
}

const browser = await launch();
try {
  // ---- a .hp profile: every hover value against the file's own lines ----
  {
    const hp = join(root, "fixtures/profiles/MapBuild-hc.hp");
    const samples = readHp(hp);
    const html = render(hp, join(work, "mapbuild.html"));
    const { page, problems } = await open(browser, html);
    const job = readFileSync(hp, "utf8").match(/^JOB "(.*)"$/m)[1];
    // The job is shown once, in the picture's title; the heading stays for the outline.
    const seen = await page.evaluate((job) => {
      const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 1 && r.height > 1; };
      return [...document.querySelectorAll("h1, #chart svg text, .about")]
        .filter((e) => e.textContent.includes(job) && shown(e)).length;
    }, job);
    check(seen === 1, `.hp: the job "${job}" is shown once on the page (${seen} times)`);
    check((await page.textContent("h1")) === job, ".hp: the heading still names the job");
    const names = await page.$$eval("#key [data-band]", (es) => es.map((e) => e.getAttribute("data-band")));
    check(names.length >= 3, `.hp: the key lists ${names.length} bands`);
    const tagNames = await page.$$eval("#key [data-band]", (es) => [...new Set(es.map((e) => e.tagName))]);
    check(!tagNames.includes("path"), `.hp: key entries are not paths (${tagNames})`);
    const value = (time, name) => {
      const s = samples.find((s) => s.time === time);
      return s ? s.values.get(name) || 0 : undefined;
    };
    await hoverBands(page, names.filter((n) => n !== "OTHER"), value, ".hp");

    // Hiding the bottom band: its path goes, the bands above come down.
    const bottom = names[names.length - 1];
    const above = names[0];
    const before = await page.getAttribute(`#chart path${attr(above)}`, "d");
    await page.click(`#key ${attr(bottom)}`);
    check(await page.locator(`#chart path${attr(bottom)}`).count() === 0,
      `.hp: a click on the key entry of ${bottom} hides its band`);
    const after = await page.getAttribute(`#chart path${attr(above)}`, "d");
    check(before !== after, `.hp: the other bands re-stack (${above} moved)`);
    await hoverBands(page, [above], value, ".hp with a band hidden");

    // Zoom: drag across the middle of the chart, then double-click.
    const full = await xLabels(page);
    check(full.length > 1 && full.every((t) => / s$/.test(t)), `.hp: the time axis says its unit (${full.join(" ")})`);
    await dragAcross(page, 0.3, 0.6);
    const zoomed = await xLabels(page);
    check(zoomed.length > 1 && zoomed.join() !== full.join(),
      `.hp: dragging zooms the time axis (${full.join(" ")} -> ${zoomed.join(" ")})`);
    check(await page.isVisible("#zoom-note"), ".hp: the page says it is zoomed");
    check(await page.locator(`#chart path${attr(bottom)}`).count() === 0, ".hp: the hidden band stays hidden when zoomed");
    await hoverBands(page, [above], value, ".hp zoomed");
    await page.dblclick("#chart svg", { position: { x: 300, y: 200 } });
    check((await xLabels(page)).join() === full.join(), ".hp: a double-click shows the whole run again");
    await page.click(`#key ${attr(bottom)}`);
    check(await page.locator(`#chart path${attr(bottom)}`).count() === 1, ".hp: a second click shows the band again");
    check(problems.length === 0, `.hp: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }

  // ---- an eventlog with user markers: values against the .hp of the same run ----
  {
    const log = join(root, "fixtures/eventlog/Markers-hd.eventlog");
    // The eventlog holds the .hp's non-empty samples, in order, on its own clock.
    const samples = readHp(join(root, "fixtures/eventlog/Markers-hd.hp")).filter((s) => s.values.size > 0);
    const html = render(log, join(work, "markers.html"));
    const { page, problems } = await open(browser, html);
    const times = await page.evaluate(() => window.hpgraph.data().times);
    check(times.length === samples.length, `eventlog: ${times.length} samples, the .hp has ${samples.length} non-empty`);
    const names = await page.$$eval("#key [data-band]", (es) => es.map((e) => e.getAttribute("data-band")));
    const value = (time, name) => {
      const k = times.indexOf(time);
      return k < 0 ? undefined : samples[k].values.get(name) || 0;
    };
    await hoverBands(page, names.filter((n) => n !== "OTHER").slice(0, 6), value, "eventlog");
    const marks = page.locator("#chart .mark");
    check(await marks.count() >= 1, "eventlog: marks are drawn");
    // The run's markers from its start: "start", before the first census, is drawn too.
    const texts = await marks.evaluateAll((es) => es.map((e) => e.dataset.text));
    await marks.first().hover();
    const text = await page.textContent("#tooltip");
    check(text === texts[0] && texts[0] === "start" && texts.includes("weighed"), `eventlog: hovering over a mark shows its text (${text} of ${texts})`);
    // Click a marker, then another: the window between their times (#78), its times the
    // markers' own, as ghc-events reads them (the .marks beside the eventlog).
    const oracle = Object.fromEntries(readFileSync(join(root, "fixtures/eventlog/Markers-hd.marks"), "utf8").trim().split("\n")
      .map((l) => l.split("\t")).map(([ns, t]) => [t, Number(ns) / 1e9]));
    const clickMark = async (prefix) => {
      const k = (await marks.evaluateAll((es) => es.map((e) => e.dataset.text))).findIndex((t) => t.startsWith(prefix));
      check(k >= 0, `eventlog: the marker "${prefix}…" is drawn`);
      await marks.nth(k).click();
    };
    // (The later clicked first: either order makes the window.)
    const wanted = [oracle["built 20000 Kätzchen"], oracle["weighed"]];
    await clickMark("weighed");
    await clickMark("built");
    const shown = await page.evaluate(() => window.hpgraph.window());
    check(shown && Math.abs(shown[0] - wanted[0]) < 1e-9 && Math.abs(shown[1] - wanted[1]) < 1e-9,
      `eventlog: two clicked markers zoom to the time between them (${shown} for ${wanted})`);
    await page.dblclick("#chart svg");
    check(problems.length === 0, `eventlog: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }

  // ---- the long profile: under 2 MB and usable at once ----
  {
    const hp = join(work, "long.hp");
    execFileSync("sh", ["-c", `"${gen}" 100000 25 25 2 > "${hp}"`]);
    const html = render(hp, join(work, "long.html"));
    const size = statSync(html).size;
    check(size <= 2_000_000, `long profile: the page is ${size} bytes (at most 2 MB)`);
    const { page, problems, ready } = await open(browser, html);
    check(ready < 5000, `long profile: ready in ${ready} ms`);
    const names = await page.$$eval("#key [data-band]", (es) => es.map((e) => e.getAttribute("data-band")));
    // A point in the middle of the graph: the band there, found from the numbers the
    // page carries (every band is a sliver of 8,000 points; their boxes overlap).
    const probe = await page.evaluate(() => {
      const D = window.hpgraph.data(), P = D.plot, T = D.times;
      const t = P.t0 + P.xr * 0.37;
      let i = 0;
      for (let k = 0; k < T.length; k++) if (Math.abs(T[k] - t) < Math.abs(T[i] - t)) i = k;
      const total = D.bands.reduce((s, b) => s + b.values[i], 0);
      let below = 0, k = 0;
      while (k < D.bands.length - 1 && below + D.bands[k].values[i] < total / 2) below += D.bands[k++].values[i];
      const v = below + D.bands[k].values[i] / 2;
      const svg = document.querySelector("#chart svg"), m = svg.getScreenCTM(), p = svg.createSVGPoint();
      p.x = P.x + (T[i] - P.t0) / P.xr * P.w;
      p.y = P.y + P.h - v / P.yr * P.h;
      const s = p.matrixTransform(m);
      return { x: s.x, y: s.y, name: D.bands[k].name };
    });
    await page.mouse.move(probe.x, probe.y);
    check((await page.textContent("#tooltip")).includes(probe.name), `long profile: hover names the band there (${probe.name})`);
    const t0 = Date.now();
    await page.click(`#key ${attr(names[names.length - 1])}`);
    await page.waitForFunction(() => true);
    check(Date.now() - t0 < 2000, `long profile: hiding a band redraws in ${Date.now() - t0} ms`);
    check(problems.length === 0, `long profile: no console error and no request (${problems.join("; ")})`);
    await page.close();
  }
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
finish("all browser checks passed");
