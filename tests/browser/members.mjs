// The page's lists beside its bands, in a real headless Chromium. A root profile's (+RTS
// -ho) and a retainer profile's (-hr, its sets from the run's report) members: each row's
// peaks are the sums made here from the .hp text (and the .prof's sets), and a click on a
// row leaves in the key and on the chart exactly the bands of the sets that hold that
// member, the y axis fitted to their stack; a second click brings every band back. A
// ticky-ticky run's counters: the table's rows are the counters of --summary=json (which
// tests/it/ticky.rs holds to ghc-events' reading), sorted as a click on a heading asks.
//
//   node tests/browser/members.mjs [HPGRAPH]      (default target/release/hpgraph)

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readHp } from "./hp.mjs";
import { check, finish, hpgraph, open as openPage, render, root, scratch, launch } from "./harness.mjs";

const work = scratch("members");
const open = (browser, file) => openPage(browser, file, () => window.hpgraph && window.hpgraph.data());
const keyNames = (page) => page.$$eval("#key li[data-band]", (es) => es.map((e) => e.getAttribute("data-band")).sort());
const drawnNames = (page) => page.$$eval("#chart path[data-band]", (es) => [...new Set(es.map((e) => e.getAttribute("data-band")))].sort());
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/** A figure as the page writes it (`71.9 kB`, `80 B`) back to a number of bytes. */
const bytes = (text) => {
  const m = text.match(/^([\d.]+)\s*(B|kB|MB|GB)$/);
  return m && Number(m[1]) * { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 }[m[2]];
};
const near = (got, want) => got !== null && Math.abs(got - want) <= Math.max(0.5, want * 0.005);

/** Each member's bands, and its alone and reachable peaks, from the censuses and each band's set. */
function membersOf(samples, setOf) {
  const out = new Map();
  for (const s of samples) {
    const here = new Map();
    for (const [name, v] of s.values) {
      const set = setOf(name);
      if (!set) continue;
      for (const m of set) {
        const e = here.get(m) || { alone: 0, reach: 0 };
        e.reach += v;
        if (set.length === 1) e.alone += v;
        here.set(m, e);
        const o = out.get(m) || { alone: 0, reach: 0, bands: new Set() };
        o.bands.add(name);
        out.set(m, o);
      }
    }
    for (const [m, e] of here) { const o = out.get(m); o.alone = Math.max(o.alone, e.alone); o.reach = Math.max(o.reach, e.reach); }
  }
  return out;
}

/** The members' table's rows as shown: name, reachable, alone (as text), and the row's index. */
const rows = (page) => page.$$eval("#members-table tbody tr[data-row]", (trs) => trs.map((tr) => ({
  row: tr.dataset.row, name: tr.cells[0].textContent, reach: tr.cells[1].textContent, alone: tr.cells[2].textContent,
  pressed: tr.getAttribute("aria-pressed") })));

/** Checks a page's members against `want`: the rows' figures, then each of the first
 * `clicks` members' view chosen by a click, and every band back after a second. */
async function checkMembers(browser, file, want, what, clicks) {
  const { page, problems } = await open(browser, file);
  const all = await keyNames(page), shown = await rows(page);
  check(shown.length === want.size && shown.every((r) => want.has(r.name) && near(bytes(r.reach), want.get(r.name).reach) &&
    near(bytes(r.alone), want.get(r.name).alone)), `${what}: ${shown.length} members, each one's reachable and alone peaks the sums of its sets`);
  for (const r of shown.slice(0, clicks)) {
    await page.click(`#members-table tr[data-row="${r.row}"]`);
    const bands = [...want.get(r.name).bands].sort(), key = await keyNames(page), drawn = await drawnNames(page);
    const top = await page.$$eval("#chart text.tick-label", (ts) => ts.map((t) => t.textContent));
    const labels = top.map(bytes).filter((v) => v !== null), most = Math.max(...labels);
    const pressed = (await rows(page)).find((x) => x.row === r.row).pressed;
    check(same(key, bands) && same(drawn, bands) && pressed === "true",
      `${what}: ${r.name} chosen: the key and the chart hold the ${bands.length} bands of the sets that hold it, no other`);
    check(most <= want.get(r.name).reach * 1.001 && most >= 0.4 * want.get(r.name).reach,
      `${what}: ${r.name}'s axis fitted to its reachable bytes (top label ${most} of ${want.get(r.name).reach})`);
    await page.click(`#members-table tr[data-row="${r.row}"]`);
    check(same(await keyNames(page), all), `${what}: ${r.name} chosen again: every band back`);
  }
  check(problems.length === 0, `${what}: no console errors or requests (${problems.join("; ")})`);
  await page.close();
}

const browser = await launch();

// A root profile: four roots, every non-empty set of them at every census.
const roots = ["hsc", "eps", "fc", "ic"];
let seed = 20261129;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
let text = 'JOB "prog +RTS -ho -RTS"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n';
for (let s = 0; s < 30; s++) {
  text += `BEGIN_SAMPLE ${s / 10}\n`;
  for (let set = 1; set < 16; set++) {
    const name = roots.filter((_, k) => set & (1 << k)).join("-");
    text += `${name}\t${Math.floor(random() * 4000 * (1 + s / 10))}\n`;
  }
  text += `END_SAMPLE ${s / 10}\n`;
}
const hp = join(work, "roots.hp");
writeFileSync(hp, text);
await checkMembers(browser, render(hp, join(work, "roots.html")), membersOf(readHp(hp), (n) => n.split("-")), "root profile", 4);

// A retainer profile of GHC 9.6 with its run's report beside it: the sets are the report's.
const dir = join(root, "fixtures/prof/ghc-9.6.6");
const sets = new Map();
for (const line of readFileSync(join(dir, "Leak-hr.prof"), "utf8").split("\n")) {
  const m = line.match(/^SET (\d+) = \{(.*)\}$/);
  if (m) sets.set(m[1], m[2].split(">, <").map((x) => `<${x.replace(/^<|>$/g, "")}>`));
}
const retainers = membersOf(readHp(join(dir, "Leak-hr.hp")), (name) => { const m = name.match(/^\((\d+)\)/); return m && sets.get(m[1]); });
await checkMembers(browser, render(join(dir, "Leak-hr.hp"), join(work, "retainers.html")), retainers, "retainer profile", 2);

// Ticky counters: the table is --summary's list, sorted by the heading clicked.
const ticky = join(root, "fixtures/ticky/Run-lT-ghc-9.10.3.eventlog");
const counters = JSON.parse(execFileSync(hpgraph, [ticky, "--summary=json"]).toString()).ticky;
{
  const { page, problems } = await open(browser, render(ticky, join(work, "ticky.html")));
  const table = () => page.$$eval("#ticky-table tbody tr[data-row]", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.dataset.value)));
  const want = (list) => list.map((c) => [c.name, String(c.allocs), String(c.allocd), String(c.entries)]);
  check(same(await table(), want(counters)), `ticky: the table lists the ${counters.length} counters of --summary, most allocating first`);
  await page.click('#ticky-table th[data-sort="entries"]');
  const byEntries = counters.map((c, k) => [c, k]).sort((x, y) => y[0].entries - x[0].entries || x[1] - y[1]).map((x) => x[0]);
  check(same(await table(), want(byEntries)), "ticky: a click on entries sorts the counters by their entries, most first");
  await page.click('#ticky-table th[data-sort="name"]');
  const names = (await table()).map((r) => r[0]);
  check(same(names, counters.map((c) => c.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))), "ticky: a click on the name sorts them by name");
  check(await page.$eval("#members", (e) => e.hidden), "ticky: no members' table where the bands are not sets");
  check(problems.length === 0, `ticky: no console errors or requests (${problems.join("; ")})`);
  await page.close();
}

await browser.close();
finish("the page's members and ticky counters: the sums of their sets, each member's view, the counters sorted");
