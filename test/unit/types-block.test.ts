// Block, commit and vote makers: derived hashes, BlockIDs and part sets, commit signatures that
// verify against the sign bytes rebuilt from the commit, and the size guard on decoding.
import assert from "node:assert/strict";
import { verify } from "node:crypto";
import { describe, it } from "node:test";
import {
  blockHash,
  blockPartsAndId,
  decodeBlock,
  encodeBlock,
  fillHeaderHashes,
  makeBlockMeta,
} from "../../src/types/block.js";
import { blockIdIsComplete, blockIdIsZero, blockIdsEqual, zeroBlockId } from "../../src/types/block-id.js";
import {
  absentCommitSig,
  commitSigFromVote,
  commitVote,
  commitVoteSignBytes,
  makeCommit,
} from "../../src/types/commit.js";
import { TypesError } from "../../src/types/errors.js";
import { addPart, emptyPartSet, partSetBytes } from "../../src/types/part-set.js";
import { isNilVote } from "../../src/types/vote.js";
import { BlockIDFlag } from "../../src/wire/generated/tendermint/types/types.js";
import { commitHash, dataHash, evidenceHash, headerHash } from "../../src/wire/hashes.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";
import * as fx from "./types-fixtures.js";

function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const der = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), publicKey]);
  return verify(null, message, { key: der, format: "der", type: "spki" }, signature);
}

describe("makeBlock", () => {
  it("fills data, last commit and evidence hashes", () => {
    const b = fx.block();
    assert.deepEqual(b.header.dataHash, dataHash(b.data.txs));
    assert.deepEqual(b.header.lastCommitHash, commitHash(b.lastCommit));
    assert.deepEqual(b.header.evidenceHash, evidenceHash([]));
    assert.deepEqual(b.header.version, { block: 11n, app: 0n });
  });

  it("block hash is the header hash, and fillHeaderHashes restores missing derived hashes", () => {
    const b = fx.block();
    assert.deepEqual(blockHash(b), headerHash(b.header));
    const stripped = { ...b, header: { ...b.header, dataHash: new Uint8Array(0) } };
    assert.deepEqual(fillHeaderHashes(stripped).header.dataHash, b.header.dataHash);
    assert.deepEqual(blockHash(stripped), blockHash(b));
  });

  it("the BlockID names the header hash and a part set that reassembles the block", () => {
    const big = fx.block(fx.commit(), [new Uint8Array(150_000).fill(3), Uint8Array.of(1)]);
    const { blockId, parts, header } = blockPartsAndId(big);
    assert.ok(blockIdIsComplete(blockId));
    assert.equal(header.total, 3);
    assert.deepEqual(blockId.hash, blockHash(big));
    let set = emptyPartSet(blockId.partSetHeader);
    for (const p of [...parts].reverse()) set = addPart(set, p);
    const decoded = decodeBlock(partSetBytes(set), 104857600);
    assert.deepEqual(encodeBlock(decoded), encodeBlock(big));
    assert.deepEqual(blockHash(decoded), blockHash(big));
  });

  it("block meta records id, size and tx count", () => {
    const b = fx.block();
    const { blockId } = blockPartsAndId(b);
    const meta = makeBlockMeta(b, blockId, encodeBlock(b).length);
    assert.equal(meta.numTxs, 1n);
    assert.equal(meta.blockSize, BigInt(encodeBlock(b).length));
    assert.deepEqual(meta.blockId, blockId);
  });

  it("decodeBlock refuses bytes over the limit", () => {
    const bytes = encodeBlock(fx.block());
    assert.throws(
      () => decodeBlock(bytes, bytes.length - 1),
      (e: unknown) => e instanceof TypesError && e.code === "TYPES_BLOCK_TOO_LARGE",
    );
  });

  it("the part-set assembler refuses growing past max bytes", () => {
    const { parts, header } = blockPartsAndId(fx.block(fx.commit(), [new Uint8Array(70_000)]));
    const set = emptyPartSet(header, 1000);
    assert.throws(
      () => addPart(set, parts[0]!),
      (e: unknown) => e instanceof TypesError && e.code === "TYPES_PART_SET_TOO_LARGE",
    );
  });
});

describe("commits", () => {
  it("a precommit for a block becomes a COMMIT entry whose rebuilt sign bytes verify", () => {
    const vote = fx.signedVote();
    const commit = makeCommit(vote.height, vote.round, vote.blockId, [commitSigFromVote(vote)]);
    assert.equal(commit.signatures[0]!.blockIdFlag, BlockIDFlag.BLOCK_ID_FLAG_COMMIT);
    const bytes = commitVoteSignBytes(fx.CHAIN_ID, commit, 0);
    assert.deepEqual(bytes, voteSignBytes(fx.CHAIN_ID, vote));
    assert.ok(ed25519Verify(fx.keys.publicKey, bytes, commit.signatures[0]!.signature));
    assert.deepEqual(commitVote(commit, 0), vote);
  });

  it("a nil precommit becomes NIL and signs the zero BlockID even in a commit for a block", () => {
    const vote = fx.signedVote({ blockId: zeroBlockId() });
    assert.ok(isNilVote(vote));
    const commit = makeCommit(vote.height, vote.round, fx.blockId, [commitSigFromVote(vote)]);
    assert.equal(commit.signatures[0]!.blockIdFlag, BlockIDFlag.BLOCK_ID_FLAG_NIL);
    assert.ok(blockIdIsZero(commitVote(commit, 0).blockId));
    assert.ok(ed25519Verify(fx.keys.publicKey, commitVoteSignBytes(fx.CHAIN_ID, commit, 0), vote.signature));
  });

  it("a missing vote is ABSENT with Go's zero time", () => {
    const sig = commitSigFromVote(undefined);
    assert.deepEqual(sig, absentCommitSig());
    assert.equal(sig.timestamp.seconds, -62135596800n);
  });

  it("a half-filled BlockID cannot enter a commit; an index past the end is refused", () => {
    const vote = fx.signedVote({ blockId: { ...fx.blockId, hash: new Uint8Array(0) } });
    assert.throws(() => commitSigFromVote(vote), TypesError);
    assert.throws(() => commitVote(fx.commit(), 3), TypesError);
    assert.ok(blockIdsEqual(fx.commit().blockId, fx.blockId));
  });
});
