// Flame graphs that read at their size: for real reports of three GHCs (pandoc's and
// MapFib's `-P`, pandoc's `-pj`; GHC 9.10's `-P` and `-pj` of a program 58 frames deep,
// fixtures/prof/Deep.hs), a heap profile's stacks 60 deep and the differential
// graph of two such runs, drawn as SVG at hpgraph's default size and at a column's
// 8.5 cm x 6 cm with 7 pt text, Chromium measures each frame's box and each text: every
// frame at least 60 pt wide (40 pt at 8.5 cm) has a label of 6 pt or more inside its
// box, no label leaves its box and no text the figure. The 8.5 cm figure keeps within
// its size; the default one may grow with the depth. The boxes and texts come from the
// browser, not from hpgraph's layout.
//
//   node tests/browser/flamelabels.mjs [HPGRAPH]   (default target/release/hpgraph)

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { check, finish, render, root, scratch, launch } from "./harness.mjs";

const work = scratch("flamelabels");
const inputs = ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"].map((g) => [join(root, "fixtures/prof", g, "MapFib-P.prof")]);
inputs.push([join(root, "fixtures/prof/pandoc-ghc-9.0.2/Pandoc-P.prof")], [join(root, "fixtures/prof/pandoc-ghc-9.0.2/Pandoc-pj.prof")]);
inputs.push(...["P", "pj"].map((t) => [join(root, `fixtures/prof/ghc-9.10.3/Deep-${t}.prof`)]));
// Stacks 20 to 60 deep that share their callers, as a deep program's heap profile.
let hp = 'JOB "deep"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0\n';
for (let k = 0; k < 40; k++) {
  const depth = 20 + ((k * 37) % 41);
  const frames = Array.from({ length: depth }, (_, i) => `Level${i}.go${i < 15 ? i % 5 : k % 3}`);
  hp += `${frames.reverse().join("/")}\t${1000 + ((k * 7919) % 99000)}\n`;
}
writeFileSync(join(work, "deep.hp"), hp + "END_SAMPLE 0\n");
// The same stacks twice as large: the differential graph of the two.
writeFileSync(join(work, "twice.hp"), (hp + "END_SAMPLE 0\n").replace(/\t(\d+)\n/g, (_, n) => `\t${2 * n}\n`));
inputs.push([join(work, "deep.hp"), "--flame"], [join(work, "deep.hp"), "--compare", join(work, "twice.hp"), "--flame"]);
const sizes = [[[], 60], [["--size", "8.5cmx6cm", "--font-size", "7"], 40]];

const browser = await launch();
let boxes = 0, labels = 0;
try {
  const page = await browser.newPage();
  for (const [n, [input, ...flags]] of inputs.entries()) {
    for (const [size, wide] of sizes) {
      const what = `${input.split("/").slice(-2).join("/")} ${size.join(" ") || "default size"}`;
      const svg = render(input, join(work, `${n}-${size.length}.svg`), ...flags, ...size);
      await page.goto(pathToFileURL(svg).href);
      const r = await page.evaluate((wide) => {
        const svg = document.querySelector("svg");
        const frames = [...svg.querySelectorAll("path")].filter((p) => p.querySelector("title")).map((p) => Object.assign(p.getBBox(), { title: p.querySelector("title").textContent }));
        const texts = [...svg.querySelectorAll("text")].map((t) => {
          const b = t.getBBox(), fs = Number(t.getAttribute("font-size")), y = Number(t.getAttribute("y"));
          return { text: t.textContent, fs, x0: b.x, x1: b.x + b.width, y0: y - 0.72 * fs, y1: y + 0.21 * fs };
        });
        const inside = (t, b) => t.x0 >= b.x - 0.5 && t.x1 <= b.x + b.width + 0.5 && t.y0 >= b.y - 0.5 && t.y1 <= b.y + b.height + 0.5;
        const wrong = [];
        let wideBoxes = 0;
        // A frame's own part (a paler box over it) and one box for many narrow callees
        // are not frames: they name themselves in their titles only.
        const named = (b) => !b.title.includes(" (its own): ") && !/^\d+ parts of /.test(b.title);
        for (const b of frames.filter((b) => b.width >= wide && named(b))) {
          wideBoxes++;
          if (!texts.some((t) => t.fs >= 6 && inside(t, b))) wrong.push(`${b.title}: a box ${b.width.toFixed(0)} pt wide has no label of 6 pt or more inside`);
        }
        // A label is over a box: it must lie inside one (the title and captions are not).
        const over = (t) => frames.some((b) => t.x0 < b.x + b.width && t.x1 > b.x && t.y0 < b.y + b.height && t.y1 > b.y);
        const label = texts.filter(over);
        for (const t of label) if (!frames.some((b) => inside(t, b))) wrong.push(`"${t.text}" leaves its box`);
        // Every text, the title and captions too, within the figure's width.
        const across = svg.viewBox.baseVal.width;
        for (const t of texts) if (t.x0 < -0.5 || t.x1 > across + 0.5) wrong.push(`"${t.text}" leaves the figure`);
        const height = svg.viewBox.baseVal.height;
        return { wrong, wideBoxes, labels: label.length, height };
      }, wide);
      check(r.wrong.length === 0, `${what}: ${r.wrong.slice(0, 4).join("; ")}`);
      check(r.wideBoxes > 3, `${what}: ${r.wideBoxes} boxes at least ${wide} pt wide`);
      if (size.length) check(r.height <= (6 / 2.54) * 72 + 0.5, `${what}: the figure keeps within its height (${r.height} pt)`);
      boxes += r.wideBoxes;
      labels += r.labels;
    }
  }
} finally {
  if (!globalThis.hpgraphSharedBrowser) await browser.close();
}
finish(`${inputs.length} flame graphs at 2 sizes: ${boxes} wide boxes, each labelled; ${labels} labels inside their boxes`);
