// What every browser check shares: where hpgraph and Chromium are, a scratch folder,
// checks that count their failures, rendering a file, opening a page with its console
// errors and outside requests watched, and the closing line and exit status.

import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const root = resolve(new URL("../..", import.meta.url).pathname);
export const hpgraph = resolve(process.argv[2] || join(root, "target/release/hpgraph"));
export const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

/** A new scratch folder for one script's files. */
export const scratch = (tag) => mkdtempSync(join(tmpdir(), `hpgraph-${tag}-`));

let failures = 0;

/** Prints one check's outcome and counts it if it failed. */
export function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}

/** Runs hpgraph on `input` to `output` with `flags`; returns `output`. */
export function render(input, output, ...flags) {
  execFileSync(hpgraph, [input, "-o", output, ...flags], { stdio: ["ignore", "inherit", "inherit"] });
  return output;
}

/**
 * Opens a page file and waits until `ready` holds in it; `problems` collects console
 * errors, page errors and any request for something but the file itself.
 */
export async function open(browser, file, ready = () => window.hpgraph !== undefined) {
  const url = pathToFileURL(file).href;
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => { if (r.url() !== url) problems.push(`request: ${r.url()}`); });
  const started = Date.now();
  await page.goto(url);
  await page.waitForFunction(ready, null, { timeout: 10000 });
  // A page's table follows its chart when the browser is idle: wait for it, as a reader does.
  await page.waitForFunction(() => {
    const t = document.getElementById("summary");
    return !t || !window.hpgraph || !window.hpgraph.data() || t.hasAttribute("data-from");
  }, null, { timeout: 10000 });
  return { page, problems, ready: Date.now() - started };
}

/**
 * The browser a suite runs in: under `all.mjs`, the one Chromium every suite shares (its
 * `close` leaves it open for the next suite: a start costs more than many checks); run
 * alone, a Chromium of its own.
 */
export async function launch() {
  const shared = globalThis.hpgraphSharedBrowser;
  if (shared) {
    return new Proxy(shared, {
      get: (b, k) => (k === "close" ? async () => {} : typeof b[k] === "function" ? b[k].bind(b) : b[k]),
    });
  }
  return chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
}

/**
 * Says how the checks went, `passed` naming what passed. Run alone, a suite then exits 1
 * if any failed; under `all.mjs` the count goes to the runner, which says it at the end.
 */
export function finish(passed) {
  console.log(failures ? `${failures} check(s) failed` : passed);
  if (globalThis.hpgraphSuiteFailures) {
    globalThis.hpgraphSuiteFailures.push(failures);
    failures = 0;
    return;
  }
  process.exit(failures ? 1 : 0);
}
