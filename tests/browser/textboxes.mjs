// Modern figures at any size, read as a reader reads them: for every fixture profile of
// three GHCs at a grid of sizes (6 to 30 cm wide, 4 to 20 cm high) with the key beside
// and below the graph, Chromium measures each text of the SVG (its width as laid out,
// its height the font's cap height over the baseline and descender under it): no text
// overlaps another, and none leaves the figure. The boxes come from the browser, not
// from hpgraph's layout.
//
//   node tests/browser/textboxes.mjs [HPGRAPH]      (default target/release/hpgraph)

import { chromium } from "playwright-core";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromiumPath, check, finish, render, root, scratch } from "./harness.mjs";

const work = scratch("textboxes");
const inputs = [];
for (const [dir, keep] of [["fixtures/profiles", () => true], ["fixtures/eventlog", (f) => f.endsWith("-hc.hp")],
  ["fixtures/eventlog-9.6", (f) => f.endsWith("-hT.hp")], ["fixtures/eventlog-9.10", (f) => f.endsWith("-hc.hp")]]) {
  inputs.push(...readdirSync(join(root, dir)).filter((f) => f.endsWith(".hp") && keep(f)).sort().map((f) => join(root, dir, f)));
}
const sizes = ["6cmx4cm", "8.5cmx5.5cm", "12cmx8cm", "17cmx6cm", "30cmx20cm", "6cmx20cm", "30cmx4cm"];

const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
let figures = 0, texts = 0;
try {
  const page = await browser.newPage();
  for (const [n, input] of inputs.entries()) {
    const name = input.split("/").slice(-2).join("/");
    for (const size of sizes) {
      for (const key of ["right", "below"]) {
        const svg = render(input, join(work, `${n}-${size}-${key}.svg`), "--style", "modern", "--size", size, "--key", key);
        await page.goto(pathToFileURL(svg).href);
        const r = await page.evaluate(() => {
          const svg = document.querySelector("svg"), vb = svg.viewBox.baseVal;
          const boxes = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim() !== "").map((t) => {
            const b = t.getBBox(), fs = Number(t.getAttribute("font-size")), y = Number(t.getAttribute("y"));
            return [t.textContent, b.x, y - 0.72 * fs, b.x + b.width, y + 0.21 * fs];
          });
          const wrong = [];
          for (const [t, x0, y0, x1, y1] of boxes) {
            if (x0 < vb.x - 0.5 || y0 < vb.y - 0.5 || x1 > vb.x + vb.width + 0.5 || y1 > vb.y + vb.height + 0.5) wrong.push(`"${t}" leaves the figure`);
          }
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i], c = boxes[j];
            if (Math.min(a[3], c[3]) - Math.max(a[1], c[1]) > 0.5 && Math.min(a[4], c[4]) - Math.max(a[2], c[2]) > 0.5) wrong.push(`"${a[0]}" over "${c[0]}"`);
          }
          return { count: boxes.length, wrong };
        });
        figures++;
        texts += r.count;
        if (r.wrong.length) check(false, `${name} at ${size}, key ${key}: ${r.wrong.slice(0, 3).join("; ")}`);
      }
    }
  }
  check(figures >= 500, `${figures} figures (${texts} texts) measured, none overlapping or outside`);
} finally {
  await browser.close();
}
finish("no text of a modern figure overlaps another or leaves it, at any size");
