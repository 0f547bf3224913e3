// The message_type labels and mempool tx counts the p2p metrics use: v0.34's Go type names read
// from the outer oneof field of each channel's message, and malformed bytes never throw.
import assert from "node:assert/strict";
import { test } from "node:test";
import { mempoolTxCount, messageTypeLabel, UNKNOWN_MESSAGE_TYPE } from "../../src/p2p/message-type.js";

/** A length-delimited field with a one-byte key and a one-byte length. */
const field = (n: number, body: number[]) => [(n << 3) | 2, body.length, ...body];

test("each channel's oneof field number names its v0.34 Go type", () => {
  const cases: [number, number, string][] = [
    [0x20, 1, "consensus_NewRoundStep"],
    [0x20, 7, "consensus_HasVote"],
    [0x21, 3, "consensus_Proposal"],
    [0x21, 5, "consensus_BlockPart"],
    [0x22, 6, "consensus_Vote"],
    [0x23, 9, "consensus_VoteSetBits"],
    [0x30, 1, "mempool_Txs"],
    [0x00, 1, "p2p_PexRequest"],
    [0x00, 2, "p2p_PexAddrs"],
    [0x40, 3, "blockchain_BlockResponse"],
    [0x40, 5, "blockchain_StatusResponse"],
    [0x60, 1, "statesync_SnapshotsRequest"],
    [0x61, 4, "statesync_ChunkResponse"],
  ];
  for (const [channel, n, label] of cases)
    assert.equal(
      messageTypeLabel(channel, Uint8Array.from(field(n, []))),
      label,
      `channel ${channel} field ${n}`,
    );
  // evidence is a bare EvidenceList, whatever its content
  assert.equal(messageTypeLabel(0x38, Uint8Array.of()), "types_EvidenceList");
});

test("unknown channels, empty, unknown or garbled oneofs are labelled unknown", () => {
  assert.equal(messageTypeLabel(0x99, Uint8Array.from(field(1, []))), UNKNOWN_MESSAGE_TYPE);
  assert.equal(messageTypeLabel(0x22, Uint8Array.of()), UNKNOWN_MESSAGE_TYPE);
  assert.equal(messageTypeLabel(0x22, Uint8Array.from(field(12, []))), UNKNOWN_MESSAGE_TYPE);
  assert.equal(messageTypeLabel(0x22, Uint8Array.of(0x00)), UNKNOWN_MESSAGE_TYPE, "field number 0");
  assert.equal(messageTypeLabel(0x22, Uint8Array.of(0xff, 0xff)), UNKNOWN_MESSAGE_TYPE, "truncated varint");
});

test("a mempool message's txs are counted; anything else counts 0", () => {
  // Message{txs = 1: Txs{repeated bytes txs = 1}}
  const txs = [...field(1, [0x61]), ...field(1, [0x62, 0x63]), ...field(1, [])];
  assert.equal(mempoolTxCount(Uint8Array.from(field(1, txs))), 3, "an empty tx is still a tx");
  assert.equal(mempoolTxCount(Uint8Array.from(field(1, []))), 0);
  assert.equal(mempoolTxCount(Uint8Array.of()), 0);
  assert.equal(mempoolTxCount(Uint8Array.of(0x0a, 0x09, 0x0a)), 0, "length past the end");
  assert.equal(mempoolTxCount(Uint8Array.from(field(2, txs))), 0, "not the txs field");
});
