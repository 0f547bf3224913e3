// The committed src/wire/generated/ must be what generate.sh makes from the committed schema:
// regenerate into a temporary directory and compare every file.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const committed = join(root, "src/wire/generated");
const fresh = mkdtempSync(join(tmpdir(), "rxbft-wire-gen-"));
after(() => rmSync(fresh, { recursive: true, force: true }));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

it("src/wire/generated is up to date with src/wire/proto (run `npm run proto`)", () => {
  execFileSync("bash", [join(root, "src/wire/generate.sh"), fresh], { stdio: "pipe", timeout: 60_000 });
  const want = files(fresh)
    .map((f) => relative(fresh, f))
    .sort();
  const have = files(committed)
    .map((f) => relative(committed, f))
    .sort();
  assert.deepEqual(have, want, "generated file list differs");
  for (const name of want) {
    assert.equal(
      readFileSync(join(committed, name), "utf8"),
      readFileSync(join(fresh, name), "utf8"),
      `${name} is stale`,
    );
  }
});
