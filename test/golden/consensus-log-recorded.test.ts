// A consensus log recorded by a real run (rxbft start with the in-process kvstore, 10 heights,
// single validator, timeout_commit 200ms) before the log had a format header: format 1. This
// version reads it (every record passes the declared schema) and `rxbft replay` folds it to the
// same decisions, and the same records under a format-2 header read the same. Another version in
// the header is refused with the file, offset and versions.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { consensusRecordCheck } from "../../src/consensus/log-record-schema.js";
import { initialConsensusState } from "../../src/consensus/state.js";
import { encodeFrame, encodeHeaderPayload, FrameType } from "../../src/wal/frame.js";
import { readWal } from "../../src/wal/log-reader.js";
import { replayLog } from "../../streams/replay-log.js";

const RECORDED = fileURLToPath(new URL("../fixtures/consensus-log/format1", import.meta.url));
const SEGMENT = "wal.000000000000";
const OWN_ADDRESS = Buffer.from("318C61DC037ACCC769085EF96A4EF1F612E2D1C4", "hex");

async function entries(dir: string) {
  const inputs: ConsensusInput[] = [];
  let markers = 0;
  for await (const e of readWal(dir, { checkRecord: consensusRecordCheck })) {
    if (e.kind === "input") inputs.push(e.input);
    else markers++;
  }
  return { inputs, markers };
}

async function replayed(dir: string) {
  const decided: string[] = [];
  const summary = await replayLog(dir, {
    initial: initialConsensusState({ config: DEFAULT_CONSENSUS_CONFIG, ownAddress: OWN_ADDRESS }),
    onHeight: (h) => decided.push(`${h.height}:${Buffer.from(h.blockHash).toString("hex")}`),
  });
  return { summary, decided };
}

function withHeader(version: number): string {
  const dir = mkdtempSync(join(tmpdir(), "rxbft-log-header-"));
  const header = encodeFrame(FrameType.Header, encodeHeaderPayload(version), 64);
  writeFileSync(join(dir, SEGMENT), Buffer.concat([header, readFileSync(join(RECORDED, SEGMENT))]));
  return dir;
}

describe("a consensus log recorded before the format header (format 1)", () => {
  it("reads with every record accepted by the declared schema", async () => {
    assert.equal(readFileSync(join(RECORDED, SEGMENT))[8], FrameType.Input, "format 1: no header record");
    const { inputs, markers } = await entries(RECORDED);
    assert.equal(markers, 10);
    assert.equal(inputs[0]?.type, "ConsensusStarted");
    const types = new Set(inputs.map((i) => i.type));
    for (const t of [
      "VoteSigned",
      "ProposalSigned",
      "BlockExecuted",
      "ProposalBlockReaped",
      "TimeoutElapsed",
    ])
      assert.ok(types.has(t as ConsensusInput["type"]), `the recording holds ${t}`);
  });

  it("still replays: rxbft replay decides its ten heights", async () => {
    const { summary, decided } = await replayed(RECORDED);
    assert.equal(summary.starts, 1);
    assert.equal(summary.endMarkers, 10);
    assert.deepEqual(
      decided.map((d) => d.split(":")[0]),
      ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
    );
  });

  it("reads and replays the same under a format-2 header", async () => {
    const dir = withHeader(2);
    try {
      assert.deepStrictEqual(await entries(dir), await entries(RECORDED));
      assert.deepEqual((await replayed(dir)).decided, (await replayed(RECORDED)).decided);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a header of another version with file, offset and the versions it reads", async () => {
    const dir = withHeader(4);
    try {
      await assert.rejects(entries(dir), (error: Error & { code?: string }) => {
        assert.equal(error.code, "WAL_UNSUPPORTED_FORMAT");
        assert.match(error.message, new RegExp(`${SEGMENT} offset 0: format version 4`));
        assert.match(error.message, /reads versions 1 and 2/);
        return true;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
