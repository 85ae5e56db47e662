// Validates speedscope files against speedscope's own file-format-schema.json (from the
// speedscope npm package) with Ajv, a standard JSON Schema validator. Prints one line per
// file, "ok FILE" or what is wrong, and exits non-zero when any file is not valid.
//
//   node tests/browser/speedscope-schema.mjs FILE.speedscope.json...
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv";

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve("speedscope/dist/release/file-format-schema.json"), "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);
let bad = 0;
for (const file of process.argv.slice(2)) {
  const data = JSON.parse(readFileSync(file, "utf8"));
  if (validate(data)) {
    console.log(`ok ${file}`);
  } else {
    bad++;
    console.log(`invalid ${file}: ${ajv.errorsText(validate.errors)}`);
  }
}
process.exit(bad ? 1 : 0);
