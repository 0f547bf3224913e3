// Sums a sampling heap profile (alloc-profile.mjs's output, or any .heapprofile) by allocating
// function: bytes sampled per function (self) and per file, largest first.
//   node test/bench/alloc-profile-summary.mjs FILE [--top 30]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { where } from "./profile-where.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "30" } },
});
if (positionals.length !== 1) {
  console.error("usage: alloc-profile-summary.mjs FILE [--top N]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], "utf8"));
const selfBy = new Map();
const fileBy = new Map();
let total = 0;
const walk = (node) => {
  const bytes = node.selfSize ?? 0;
  total += bytes;
  const f = node.callFrame;
  const name = `${f.functionName || "(anonymous)"} ${where(f.url)}:${f.lineNumber + 1}`;
  selfBy.set(name, (selfBy.get(name) ?? 0) + bytes);
  const file = where(f.url) || "(native)";
  fileBy.set(file, (fileBy.get(file) ?? 0) + bytes);
  for (const child of node.children ?? []) walk(child);
};
walk(profile.head);
const top = Number(values.top);
const show = (title, map) => {
  console.log(`-- ${title}`);
  for (const [name, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${(bytes / 1048576).toFixed(0).padStart(6)} MB  ${name}`,
    );
  }
};
console.log(`${(total / 1048576).toFixed(0)} MB sampled`);
show("bytes allocated per function", selfBy);
show("bytes allocated per file", fileBy);
