// The code version a campaign prints and a kept run stores: a change to any source a run loads
// changes the fingerprint, kept output does not, and a replay at other code is told so.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type CodeVersion, codeMismatch, codeVersion, sourceFingerprint } from "./code-version.js";

describe("code version of a simulation", () => {
  const root = mkdtempSync(join(tmpdir(), "rxbft-code-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write("src/consensus/reducer.ts", "export const rule = 1;\n");
  write("streams/loop.ts", "export {};\n");
  write("test/sim/simulation.ts", "export {};\n");
  write("package-lock.json", "{}\n");

  it("changes with the content of any source a run loads, and only with that", () => {
    const first = sourceFingerprint(root);
    assert.equal(sourceFingerprint(root), first);
    write("test/sim/failures/11434/summary.txt", "kept output\n");
    write("test/sim/failures/11434/scenario.json", "{}\n");
    write("docs/simulation.md", "prose\n");
    assert.equal(sourceFingerprint(root), first, "kept runs and docs are not code");
    write("src/consensus/reducer.ts", "export const rule = 2;\n");
    assert.notEqual(sourceFingerprint(root), first);
    write("src/consensus/reducer.ts", "export const rule = 1;\n");
    assert.equal(sourceFingerprint(root), first);
    write("package-lock.json", '{"rxjs":"7.8.3"}\n');
    assert.notEqual(sourceFingerprint(root), first, "a dependency's version is code too");
  });

  it("tells a replay at other code, or of a run that did not record its code, why it may differ", () => {
    const here = codeVersion();
    assert.match(here.fingerprint, /^[0-9a-f]{16}$/);
    assert.equal(codeMismatch(here, here), undefined);
    const other: CodeVersion = { commit: "f868deb", modified: false, fingerprint: "0".repeat(16) };
    assert.match(codeMismatch(other, here) ?? "", /written by commit f868deb, sources 0{16}.*code differs/);
    assert.match(codeMismatch(undefined, here) ?? "", /does not say which code wrote it/);
  });
});
