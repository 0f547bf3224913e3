// Tests live in their layer (docs/architecture.md, "Tests"): a fast-check suite belongs in
// property/, and a test that opens LevelDB or starts PostgreSQL belongs in integration/ (or
// property/, for a fast-check comparison). A file importing one of those into unit/ or golden/
// fails here, named with what it imports.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("../..", import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) return testFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** What marks a test as belonging elsewhere, by the module it imports. */
const ELSEWHERE: readonly (readonly [RegExp, string, readonly string[]])[] = [
  [/^fast-check$/, "a fast-check suite: test/property", ["test/unit", "test/golden"]],
  [
    /(^|\/)(classic-level|level)$|\/store\/level-database\.js$/,
    "opens LevelDB: test/integration",
    ["test/unit"],
  ],
  [/\/postgres-cluster\.js$/, "starts PostgreSQL: test/integration", ["test/unit"]],
];

export function misplacedTests(files: readonly { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const imports = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
    for (const [pattern, verdict, layers] of ELSEWHERE) {
      if (!layers.some((layer) => path.startsWith(`${layer}/`))) continue;
      const hit = imports.find((name) => pattern.test(name));
      if (hit !== undefined) found.push(`${path} imports ${hit}, ${verdict}`);
    }
  }
  return found;
}

describe("tests live in their layer", () => {
  it("no fast-check suite in unit/ or golden/, no database opened in unit/", () => {
    const files = [...testFiles("test/unit"), ...testFiles("test/golden")].map((path) => ({
      path,
      text: readFileSync(join(root, path), "utf8"),
    }));
    assert.deepEqual(misplacedTests(files), []);
  });

  it("names a misplaced test and where it belongs (the check can fail)", () => {
    assert.deepEqual(
      misplacedTests([
        { path: "test/unit/a.test.ts", text: 'import fc from "fast-check";' },
        {
          path: "test/unit/b.test.ts",
          text: 'import { openBinaryLevel } from "../../src/store/level-database.js";',
        },
        { path: "test/golden/c.test.ts", text: 'import x from "../system/postgres-cluster.js";' },
        { path: "test/property/d.test.ts", text: 'import fc from "fast-check";' },
      ]),
      [
        "test/unit/a.test.ts imports fast-check, a fast-check suite: test/property",
        "test/unit/b.test.ts imports ../../src/store/level-database.js, opens LevelDB: test/integration",
      ],
    );
  });
});
