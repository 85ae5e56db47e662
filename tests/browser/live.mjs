// Drives the live page of `hpgraph --serve` in a real headless Chromium while this script
// writes a real GHC profile (fixtures/profiles/ManyCC-hc.hp) sample by sample, as a
// running program would. Checks what a reader sees: the waiting state before the file
// exists, the chart gaining samples, a hidden band staying hidden, the zoom and the
// tooltip surviving updates, the program restarting, and the page reconnecting by itself
// to a restarted server; then an eventlog on standard input and the page saying when it
// ended. The times the page ends with are checked against the file's own BEGIN_SAMPLE
// lines.
//
//   node tests/browser/live.mjs [HPGRAPH]      (default target/release/hpgraph)
//
// Exits 1 if a check failed, saying which.

import { spawn } from "node:child_process";
import { appendFileSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { check, finish, hpgraph, root, scratch, launch } from "./harness.mjs";

const work = scratch("live");
const live = join(work, "live.hp");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The profile's header and its samples, each with its lines, split at BEGIN_SAMPLE. */
function split(text) {
  const parts = text.split(/(?=^BEGIN_SAMPLE )/m);
  return { header: parts[0], samples: parts.slice(1) };
}
const source = readFileSync(join(root, "fixtures/profiles/ManyCC-hc.hp"), "utf8");
const { header, samples } = split(source);
const timesOf = (text) => [...text.matchAll(/^BEGIN_SAMPLE (\S+)/gm)].map((m) => Number(m[1]));

/** Starts the server; resolves with its process and URL once it has said where it is. */
function serve(addr) {
  const child = spawn(hpgraph, ["--serve", addr, "--interval", "0.1", "--quiet", live], {
    cwd: work, stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((ok, fail) => {
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
      const m = err.match(/serving (http:\/\/\S+)\s/);
      if (m) ok({ child, url: m[1] });
    });
    child.on("exit", (code) => fail(new Error(`hpgraph exited with ${code}: ${err}`)));
  });
}
function stop(child) {
  return new Promise((ok) => { child.on("exit", (code) => ok(code)); child.kill("SIGINT"); });
}

const browser = await launch();
let server = null;
try {
  server = await serve("127.0.0.1:0");
  const origin = new URL(server.url).origin;
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => { if (!r.url().startsWith(origin)) problems.push(`request: ${r.url()}`); });
  await page.goto(server.url);
  const state = () => page.getAttribute("#live-status", "data-status");
  const count = () => page.evaluate(() => { const D = window.hpgraph.data(); return D ? D.times.length : 0; });
  const waitFor = (fn, arg, what, timeout = 8000) =>
    page.waitForFunction(fn, arg, { timeout }).then(() => true, () => { check(false, `timed out: ${what}`); return false; });

  // ---- no file yet ----
  await waitFor(() => document.getElementById("live-status").dataset.status === "waiting", null, "waiting state");
  check(await state() === "waiting", "before the file exists the page says it is waiting for the program");
  check(await page.locator("#chart svg").count() === 0, "and shows no chart");

  // ---- the program starts writing ----
  writeFileSync(live, header + samples.slice(0, 4).join(""));
  await waitFor(() => { const D = window.hpgraph.data(); return D && D.times.length === 4; }, null, "4 samples");
  check(await page.locator("#chart svg").count() === 1, "the chart appears with the first samples, without a reload");
  check(await state() === "live", `the page says it is live (${await page.textContent("#live-status")})`);

  // Hide the band at the top of the key, zoom into the middle, hover over the chart.
  const names = await page.$$eval("#key [data-band]", (es) => es.map((e) => e.getAttribute("data-band")));
  const hiddenName = names.find((n) => n !== "OTHER");
  const esc = (n) => `[data-band="${n.replace(/["\\]/g, "\\$&")}"]`;
  await page.click(`#key ${esc(hiddenName)}`);
  check(await page.locator(`#chart path${esc(hiddenName)}`).count() === 0, `a click hides ${hiddenName}`);
  const plotBox = () => page.evaluate(() => {
    const P = window.hpgraph.data().plot, svg = document.querySelector("#chart svg"), m = svg.getScreenCTM();
    const at = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(m); };
    const a = at(P.x, P.y + P.h), b = at(P.x + P.w, P.y);
    return { x0: a.x, x1: b.x, y0: b.y, y1: a.y };
  });
  let box = await plotBox();
  const y = box.y1 - (box.y1 - box.y0) * 0.05;
  await page.mouse.move(box.x0 + (box.x1 - box.x0) * 0.1, y);
  await page.mouse.down();
  await page.mouse.move(box.x0 + (box.x1 - box.x0) * 0.5, y, { steps: 4 });
  await page.mouse.move(box.x0 + (box.x1 - box.x0) * 0.9, y, { steps: 4 });
  await page.mouse.up();
  check(!(await page.locator("#zoom-note").isHidden()), "a drag zooms in");
  // The time axis's labels: the range in view.
  const zoomLabels = async () => page.evaluate(() => {
    const P = window.hpgraph.data().plot;
    return [...document.querySelectorAll("#chart .tick-label")]
      .filter((t) => Number(t.getAttribute("y")) > P.y + P.h).map((t) => t.textContent).join(" ");
  });
  const zoomedBefore = await zoomLabels();
  box = await plotBox();
  await page.mouse.move(box.x0 + (box.x1 - box.x0) * 0.5, box.y1 - (box.y1 - box.y0) * 0.05);
  check(!(await page.locator("#tooltip").isHidden()), "hovering shows the tooltip");
  const updatesBefore = await page.evaluate(() => window.hpgraph.updates());

  // ---- the program goes on: one sample at a time ----
  for (let k = 4; k < samples.length; k++) {
    appendFileSync(live, samples[k]);
    await waitFor((n) => window.hpgraph.data().times.length === n, k + 1, `${k + 1} samples`, 5000);
  }
  const D = await page.evaluate(() => window.hpgraph.data());
  const want = timesOf(source);
  check(D.times.length === want.length && D.times.every((t, i) => t === want[i]),
    `the page ends with the file's ${want.length} sample times`);
  const updates = await page.evaluate(() => window.hpgraph.updates());
  check(updates - updatesBefore >= 3, `the page updated in place ${updates - updatesBefore} times`);
  check(await page.locator(`#key ${esc(hiddenName)}.off`).count() === 1 &&
        await page.getAttribute(`#key ${esc(hiddenName)}`, "aria-pressed") === "false",
    `${hiddenName} is still off in the key`);
  check(await page.locator(`#chart path${esc(hiddenName)}`).count() === 0, `${hiddenName} is still not drawn`);
  check(await page.locator("#chart path[data-band]").count() > 0, "the other bands are drawn");
  const zoomedAfter = await zoomLabels();
  check(!(await page.locator("#zoom-note").isHidden()) && zoomedAfter === zoomedBefore,
    `the zoom survives the updates (time axis ${zoomedBefore} / ${zoomedAfter})`);
  check(!(await page.locator("#tooltip").isHidden()), "the tooltip survives the updates");
  check((await page.$$eval("#summary tbody tr", (r) => r.length)) > 1,
    "the summary table was swapped in");
  check((await page.textContent(".about")).includes(`${want.length} samples`), "the line under the title counts every sample");

  // ---- the program is run again: a new file ----
  writeFileSync(join(work, "next.hp"), header);
  renameSync(join(work, "next.hp"), live);
  await waitFor(() => document.getElementById("live-status").dataset.status === "restarted", null, "restarted state");
  check(await state() === "restarted", `a replaced file shows the restart (${await page.textContent("#live-status")})`);
  appendFileSync(live, samples.slice(0, 2).join(""));
  await waitFor(() => window.hpgraph.data().times.length === 2, null, "the new run's 2 samples");
  check(await state() === "live", "the new run is shown live");
  check(await page.locator(`#chart path${esc(hiddenName)}`).count() === 0, `${hiddenName} stays hidden in the new run`);

  // ---- the server goes away and comes back on the same address ----
  const code = await stop(server.child);
  check(code === 0, `SIGINT: the server exits with 0 (${code})`);
  server = null;
  await waitFor(() => document.getElementById("live-status").dataset.status === "reconnecting", null, "reconnecting state");
  appendFileSync(live, samples.slice(2, 5).join(""));
  server = await serve(new URL(origin).host);
  await waitFor(() => window.hpgraph.data().times.length === 5 &&
    document.getElementById("live-status").dataset.status === "live", null, "reconnected, 5 samples", 15000);
  check(await count() === 5, "after the server restarts the page reconnects and shows its profile");
  check(await page.locator(`#chart path${esc(hiddenName)}`).count() === 0, `${hiddenName} is still hidden`);
  // A reconnecting EventSource logs failed connections; nothing else may go wrong.
  const real = problems.filter((p) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(p));
  check(real.length === 0, `no page error and no request elsewhere (${real.join("; ")})`);
  await page.close();

  // ---- a stream: an eventlog on standard input, then its end ----
  const log = readFileSync(join(root, "fixtures/eventlog/Leak-hT.eventlog"));
  const piped = spawn(hpgraph, ["--serve", "127.0.0.1:0", "--interval", "0.1", "--quiet", "-"], {
    cwd: work, stdio: ["pipe", "ignore", "pipe"],
  });
  const pipedUrl = await new Promise((ok, fail) => {
    let err = "";
    piped.stderr.on("data", (d) => { err += d; const m = err.match(/serving (http:\/\/\S+)\s/); if (m) ok(m[1]); });
    piped.on("exit", (code) => fail(new Error(`hpgraph exited with ${code}: ${err}`)));
  });
  const streamPage = await browser.newPage();
  await streamPage.goto(pipedUrl);
  for (let at = 0; at < log.length; at += 4096) {
    piped.stdin.write(log.subarray(at, at + 4096));
    await sleep(10);
  }
  piped.stdin.end();
  const ended = await streamPage.waitForFunction(
    () => document.getElementById("live-status").dataset.status === "ended" && window.hpgraph.data(),
    null, { timeout: 10000 }).then(() => true, () => false);
  check(ended, `when standard input ends the page says so (${await streamPage.textContent("#live-status")})`);
  const streamTimes = await streamPage.evaluate(() => window.hpgraph.data().times.length);
  check(streamTimes > 0 && (await streamPage.locator("#chart svg").count()) === 1,
    `and keeps the stream's last picture (${streamTimes} samples)`);
  check(piped.exitCode === null, "the server goes on serving after the stream ends");
  piped.kill("SIGINT");
  await streamPage.close();
} catch (e) {
  check(false, `unexpected: ${e.stack || e}`);
} finally {
  if (server) await stop(server.child);
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
finish("all live-page checks passed");
