// Channel 0x40 against v0.34's TestBlockchainMessageVectors (blockchain/msgs_test.go): every
// message encodes to the Go bytes and decodes back; ValidateBasic's breaches (negative heights, a
// base above the height, a block that fails Block.ValidateBasic), garbage and oversize messages
// come back as `invalid` with a reason, never an exception.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  BLOCKSYNC_MAX_MESSAGE_BYTES,
  decodeBlocksyncMessage,
  encodeBlockRequest,
  encodeBlockResponse,
  encodeBlockResponseFromBytes,
  encodeNoBlockResponse,
  encodeStatusRequest,
  encodeStatusResponse,
} from "../../src/p2p/blocksync-wire.js";
import { Message } from "../../src/wire/generated/tendermint/blockchain/types.js";
import { Block } from "../../src/wire/generated/tendermint/types/block.js";

const vectors = JSON.parse(
  readFileSync(new URL("../fixtures/p2p/repo-message-vectors.json", import.meta.url), "utf8"),
) as Record<string, { input: string; hex: string }[]>;
const group =
  vectors["blocksync (blockchain/msgs_test.go TestBlockchainMessageVectors; tendermint.blockchain.Message)"]!;
const hexOf = (input: string) => group.find((v) => v.input.startsWith(input))!.hex;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const MAX = 9223372036854775807n;

test("requests, no-block and status messages encode as v0.34's vectors", () => {
  assert.equal(hex(encodeBlockRequest(1n)), hexOf("block_request{height:1}"));
  assert.equal(hex(encodeBlockRequest(MAX)), hexOf("block_request{height:9223372036854775807}"));
  assert.equal(hex(encodeNoBlockResponse(1n)), hexOf("no_block_response{height:1}"));
  assert.equal(hex(encodeNoBlockResponse(MAX)), hexOf("no_block_response{height:9223372036854775807}"));
  assert.equal(hex(encodeStatusRequest()), hexOf("status_request"));
  assert.equal(hex(encodeStatusResponse(2n, 1n)), hexOf("status_response{height:1, base:2}"));
  assert.equal(hex(encodeStatusResponse(MAX, MAX)), hexOf("status_response{height:MaxInt64"));
});

test("the vectors decode back; a status with base above height is a breach (as ValidateBasic says)", () => {
  assert.deepEqual(decodeBlocksyncMessage(Buffer.from(hexOf("block_request{height:1}"), "hex")), {
    kind: "blockRequest",
    height: 1n,
  });
  assert.deepEqual(decodeBlocksyncMessage(Buffer.from(hexOf("no_block_response{height:1}"), "hex")), {
    kind: "noBlockResponse",
    height: 1n,
  });
  assert.deepEqual(decodeBlocksyncMessage(Buffer.from(hexOf("status_request"), "hex")), {
    kind: "statusRequest",
  });
  const lying = decodeBlocksyncMessage(Buffer.from(hexOf("status_response{height:1, base:2}"), "hex"));
  assert.equal(lying.kind, "invalid");
  assert.match((lying as { reason: string }).reason, /impossible heights: base 2, height 1/);
  assert.deepEqual(decodeBlocksyncMessage(encodeStatusResponse(3n, 700n)), {
    kind: "statusResponse",
    base: 3n,
    height: 700n,
  });
});

test("the BlockResponse vector: a block wrapped as Go wraps it, also when built from stored bytes", () => {
  const bytes = Buffer.from(hexOf("block_response"), "hex");
  const message = Message.decode(bytes);
  assert.equal(message.sum?.$case, "blockResponse");
  const block = (message.sum as { blockResponse: { block: Block } }).blockResponse.block;
  assert.equal(block.header.height, 3n);
  assert.equal(hex(encodeBlockResponse(block)), hex(bytes));
  assert.equal(hex(encodeBlockResponseFromBytes(Block.encode(block).finish())), hex(bytes));
  // Go's MakeBlock leaves hashes unset, so ValidateBasic refuses it: a peer sending it is dropped.
  const decoded = decodeBlocksyncMessage(bytes);
  assert.equal(decoded.kind, "invalid");
  assert.match((decoded as { reason: string }).reason, /invalid block/);
  // A long block's length prefix takes several bytes.
  const big = Block.decode(Block.encode(block).finish());
  big.data.txs = [new Uint8Array(300_000).fill(1)];
  const enc = Block.encode(big).finish();
  assert.equal(hex(encodeBlockResponseFromBytes(enc)), hex(encodeBlockResponse(big)));
});

test("garbage, an empty oneof, negative heights and oversize messages are invalid with a reason", () => {
  const cases: [Uint8Array, RegExp][] = [
    [Uint8Array.of(0xff, 0xff, 0xff), /undecodable blocksync message/],
    [new Uint8Array(0), /no known variant/],
    [encodeBlockRequest(-1n), /negative height -1/],
    [encodeNoBlockResponse(-5n), /negative height -5/],
    [encodeStatusResponse(0n, -1n), /impossible heights/],
    [Uint8Array.of(0x1a, 0x00), /without a block/],
    [new Uint8Array(BLOCKSYNC_MAX_MESSAGE_BYTES + 1), /exceeds 104857605/],
  ];
  for (const [bytes, reason] of cases) {
    const m = decodeBlocksyncMessage(bytes);
    assert.equal(m.kind, "invalid");
    assert.match((m as { reason: string }).reason, reason);
  }
});
