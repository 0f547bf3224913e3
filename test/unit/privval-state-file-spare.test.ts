// The signer's state file replaced over the previous state's inode (src/privval/state-file-spare.ts):
// the second write reuses the inode the first one replaced instead of creating a file, a stage
// over the spare never touches the state file itself, and a spare left by an earlier run (possibly
// a second name of the state file) is never written.
import assert from "node:assert/strict";
import { chmodSync, linkSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { StateFileWriter } from "../../src/privval/state-file-writer.js";
import {
  type PrivValidatorState,
  privValidatorStateFileText,
} from "../../src/types/key-file-priv-validator-state.js";
import { freshStateFile } from "./privval-signer-fixture.js";

const state = (height: bigint, signBytes = 30): PrivValidatorState => ({
  height,
  round: 0,
  step: 2,
  signature: new Uint8Array(64).fill(Number(height % 200n)),
  signBytes: new Uint8Array(signBytes).fill(0xcd),
});
const text = (height: bigint, signBytes?: number) => privValidatorStateFileText(state(height, signBytes));

const writer = new StateFileWriter();
after(() => writer.close());

test("the second write lands on the inode the first one replaced, with its own length and mode 0600", async () => {
  const path = freshStateFile();
  chmodSync(path, 0o644);
  const original = statSync(path).ino;
  await writer.write(path, text(1n, 90), 0o600);
  assert.notEqual(statSync(path).ino, original, "the first write has no spare yet: a fresh file");
  await writer.write(path, text(2n, 10), 0o600);
  assert.equal(statSync(path).ino, original, "the second write reuses the first one's old inode");
  assert.equal(readFileSync(path, "utf8"), text(2n, 10), "shorter than what the inode held: cut to length");
  assert.equal(statSync(path).mode & 0o777, 0o600);
  for (let h = 3n; h < 8n; h++) {
    await writer.write(path, text(h, Number(h) * 7), 0o600);
    assert.equal(readFileSync(path, "utf8"), text(h, Number(h) * 7));
  }
  assert.deepEqual(
    readdirSync(dirname(path)).filter((n) => !n.includes(".spare-")),
    ["priv_validator_state.json"],
  );
});

test("while a stage over the spare is held, the state file still holds the previous state", async () => {
  const path = freshStateFile();
  const held = new StateFileWriter({ testHoldStages: (content) => content === text(2n) });
  try {
    await held.write(path, text(1n), 0o600);
    void held.write(path, text(2n), 0o600).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    const spares = readdirSync(dirname(path)).filter((n) => n.includes(".spare-"));
    assert.ok(
      spares.some((n) => readFileSync(join(dirname(path), n), "utf8") === text(2n)),
      "the new state is written over a spare",
    );
    assert.equal(readFileSync(path, "utf8"), text(1n), "not over the state file");
  } finally {
    await held.close();
  }
});

test("a spare left by an earlier run, linked to the state file, is never written over", async () => {
  const path = freshStateFile();
  const before = readFileSync(path, "utf8");
  // A crash between the link and the rename's directory fsync can leave this.
  linkSync(path, join(dirname(path), ".priv_validator_state.json.spare-a"));
  const held = new StateFileWriter({ testHoldStages: true });
  try {
    void held.write(path, text(1n), 0o600).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(readFileSync(path, "utf8"), before);
  } finally {
    await held.close();
  }
});

test("a state file that is a symbolic link gets no spare: the file it pointed at is never written", async () => {
  const target = freshStateFile();
  const before = readFileSync(target, "utf8");
  const path = join(dirname(freshStateFile()), "linked_state.json");
  symlinkSync(target, path);
  await writer.write(path, text(1n), 0o600);
  await writer.write(path, text(2n), 0o600);
  assert.equal(readFileSync(path, "utf8"), text(2n));
  assert.equal(readFileSync(target, "utf8"), before);
});
