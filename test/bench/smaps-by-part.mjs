// Sums the resident pages of smaps copies (load.bench.ts's LOAD_SMAPS_DIR) by what they map: each
// LevelDB database's tables (by its folder, tx_index.db, kvstore.db, …), the main malloc arena
// ([heap]), the other anonymous memory, and the other files (the node binary, libraries). With
// several copies of a run, also each part's growth between the first and the last "during" copy,
// so the file-backed slope of a long load is split by database (issue 19 item 4).
//   node test/bench/smaps-by-part.mjs <dir-or-files...>
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";

export function residentByPart(text) {
  const parts = {};
  let part = "other files";
  for (const line of text.split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[1];
      const db = /\/([^/]+\.db)\/[^/]+$/.exec(path);
      if (db) part = db[1];
      else if (path === "[heap]") part = "[heap]";
      else if (path === "" || path.startsWith("[")) part = "anonymous";
      else part = "other files";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) parts[part] = (parts[part] ?? 0) + Number(rss[1]) / 1024;
  }
  return parts;
}

const files = process.argv
  .slice(2)
  .flatMap((p) => (statSync(p).isDirectory() ? readdirSync(p).map((f) => join(p, f)) : [p]))
  .filter((f) => basename(f).startsWith("smaps"));
const order = (f) => {
  const m = /smaps-(during|after)-(\d+)s/.exec(basename(f));
  return m ? (m[1] === "after" ? 1e6 : 0) + Number(m[2]) : 0;
};
files.sort((a, b) => order(a) - order(b));
const rows = files.map((f) => ({
  name: basename(f).replace(/\.txt$/, ""),
  parts: residentByPart(readFileSync(f, "utf8")),
}));
const names = [...new Set(rows.flatMap((r) => Object.keys(r.parts)))].sort();
console.log(["copy", ...names, "total"].join("\t"));
for (const { name, parts } of rows) {
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  console.log([name, ...names.map((n) => (parts[n] ?? 0).toFixed(1)), total.toFixed(1)].join("\t"));
}
const during = rows.filter((r) => r.name.startsWith("smaps-during"));
if (during.length >= 2) {
  const first = during[0];
  const last = during.at(-1);
  const growth = names.map((n) => `${n} ${((last.parts[n] ?? 0) - (first.parts[n] ?? 0)).toFixed(1)}`);
  console.log(`growth ${first.name} → ${last.name} (MB): ${growth.join(", ")}`);
}
