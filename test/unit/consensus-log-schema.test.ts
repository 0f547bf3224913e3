// The consensus log's declared record schema refuses, with the file, the offset and the path of
// what is wrong: an unknown input type, a missing field, an undeclared field, a value of the wrong
// kind (at the top and deep inside a protobuf message), a bad oneof case; and the log refuses a
// segment header of an unknown format version, at open as well as on read.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { consensusRecordCheck, consensusRecordProblem } from "../../src/consensus/log-record-schema.js";
import { encodeFrame, encodeHeaderPayload, FrameType } from "../../src/wal/frame.js";
import { readWal } from "../../src/wal/log-reader.js";
import { encodeRecord } from "../../src/wal/record-codec.js";
import { Wal } from "../../src/wal/wal.js";

const time = { seconds: 1700000000n, nanos: 0 };
const blockId = { hash: new Uint8Array(32), partSetHeader: { total: 1, hash: new Uint8Array(32) } };
const vote = {
  type: 1,
  height: 3n,
  round: 0,
  blockId,
  timestamp: time,
  validatorAddress: new Uint8Array(20),
  validatorIndex: 0,
  signature: new Uint8Array(64),
};
const good = { type: "VoteReceived", time, vote, from: "peer-a" };

async function readOne(record: unknown): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), "rxbft-log-schema-"));
  const file = join(dir, "wal.000000000000");
  const header = encodeFrame(FrameType.Header, encodeHeaderPayload(), 64);
  writeFileSync(file, Buffer.concat([header, encodeFrame(FrameType.Input, encodeRecord(record), 1 << 20)]));
  try {
    const got: unknown[] = [];
    for await (const e of readWal(dir, { checkRecord: consensusRecordCheck })) got.push(e);
    return got;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function refused(record: unknown, reason: RegExp): Promise<void> {
  await assert.rejects(readOne(record), (error: Error & { code?: string; details?: { offset?: number } }) => {
    assert.equal(error.code, "WAL_BAD_RECORD");
    assert.match(error.message, /wal\.000000000000 offset 19 is refused/);
    assert.equal(error.details?.offset, 19);
    assert.match(error.message, reason);
    return true;
  });
}

describe("the consensus log's declared record schema", () => {
  it("accepts a declared record and reads it back unchanged", async () => {
    assert.equal(consensusRecordProblem(good), undefined);
    assert.deepStrictEqual(await readOne(good), [{ kind: "input", input: good }]);
  });

  it("refuses an unknown input type", async () => {
    await refused({ ...good, type: "VoteForged" }, /unknown input type "VoteForged"/);
  });

  it("refuses a record that is not an object, or has no type", async () => {
    await refused([1, 2], /should be an object, got an array/);
    await refused({ time, vote }, /has no type string/);
  });

  it("refuses a missing field", async () => {
    const { from: _, ...missing } = good;
    await refused(missing, /VoteReceived\.from should be a string, got undefined/);
  });

  it("refuses an undeclared field", async () => {
    await refused({ ...good, peer: "x" }, /VoteReceived has an undeclared field "peer"/);
    await refused(
      { ...good, vote: { ...vote, extension: new Uint8Array(1) } },
      /VoteReceived\.vote has an undeclared field "extension"/,
    );
  });

  it("refuses a value of the wrong kind, naming its path", async () => {
    await refused(
      { ...good, vote: { ...vote, height: 3 } },
      /VoteReceived\.vote\.height should be a bigint, got number 3/,
    );
    await refused(
      {
        ...good,
        vote: { ...vote, blockId: { ...blockId, partSetHeader: { total: 1n, hash: blockId.hash } } },
      },
      /VoteReceived\.vote\.blockId\.partSetHeader\.total should be an integer/,
    );
    await refused(
      { ...good, time: { seconds: "1", nanos: 0 } },
      /VoteReceived\.time\.seconds should be a bigint/,
    );
  });

  it("refuses a string outside its declared values and a oneof case it does not declare", () => {
    const failed = { type: "SignFailed", time, height: 1n, round: 0, what: "vote", reason: "x" };
    assert.match(
      consensusRecordProblem(failed) ?? "",
      /SignFailed\.what should be one of proposal, prevote, precommit/,
    );
    const reaped = {
      type: "ProposalBlockReaped",
      time,
      height: 1n,
      round: 0,
      txs: [],
      evidence: [{ sum: { $case: "forgedEvidence", forgedEvidence: {} } }],
    };
    assert.match(
      consensusRecordProblem(reaped) ?? "",
      /evidence\[0\]\.sum\.\$case should be one of duplicateVoteEvidence/,
    );
  });

  it("lets a protobuf submessage and an optional field be absent", () => {
    assert.equal(consensusRecordProblem({ ...good, vote: { ...vote, blockId: undefined } }), undefined);
    assert.equal(
      consensusRecordProblem({ type: "BlockValidated", time, height: 1n, blockHash: new Uint8Array(0) }),
      undefined,
    );
  });
});

describe("the log's format header", () => {
  it("Wal.open refuses a segment of an unknown format version, naming file and offset", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rxbft-log-version-"));
    try {
      writeFileSync(join(dir, "wal.000000000000"), encodeFrame(FrameType.Header, encodeHeaderPayload(9), 64));
      await assert.rejects(Wal.open(dir), (error: Error & { code?: string }) => {
        assert.equal(error.code, "WAL_UNSUPPORTED_FORMAT");
        assert.match(
          error.message,
          /wal\.000000000000 offset 0: format version 9, but this rxbft reads versions 1 and 2/,
        );
        return true;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a header record that is not ours", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rxbft-log-magic-"));
    try {
      const payload = encodeHeaderPayload();
      payload[0] = 0x58;
      writeFileSync(join(dir, "wal.000000000000"), encodeFrame(FrameType.Header, payload, 64));
      await assert.rejects(Wal.open(dir), /offset 0: a header record that is not an rxbft log header/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a new log starts with the header and reads back through the schema", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rxbft-log-new-"));
    try {
      const wal = await Wal.open(dir, { checkRecord: consensusRecordCheck });
      wal.appendInput(good);
      await wal.endHeight(3n);
      await wal.close();
      const entries: unknown[] = [];
      for await (const e of readWal(dir, { checkRecord: consensusRecordCheck })) entries.push(e);
      assert.deepStrictEqual(entries, [
        { kind: "input", input: good },
        { kind: "end-height", height: 3n },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
