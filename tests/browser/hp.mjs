// A .hp file read line by line, as the page tests' reference: none of hpgraph's code.

import { readFileSync } from "node:fs";

/** The samples of a .hp file: [{time, values: Map(name -> bytes)}], a name that occurs
 * twice in a sample added up. */
export function readHp(path) {
  const samples = [];
  let current = null;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const [word, rest] = [line.split(/[ \t]/)[0], line.slice(line.indexOf(" ") + 1)];
    if (word === "BEGIN_SAMPLE") current = { time: parseFloat(rest), values: new Map() };
    else if (word === "END_SAMPLE") { samples.push(current); current = null; }
    else if (current && line.includes("\t")) {
      const tab = line.lastIndexOf("\t");
      const name = line.slice(0, tab);
      current.values.set(name, (current.values.get(name) || 0) + Number(line.slice(tab + 1)));
    }
  }
  return samples;
}
