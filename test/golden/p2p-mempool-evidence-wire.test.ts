// The mempool (0x30) and evidence (0x38) channel messages against v0.34.35's own vectors
// (TestMempoolVectors, TestEvidenceVectors): what we send is byte-identical to a Go node's, and
// what a Go node sends decodes, within the receiver's limits.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { mempoolRecvMessageCapacity } from "../../src/p2p/channels.js";
import { decodeEvidenceMessage, encodeEvidenceMessage } from "../../src/p2p/evidence-wire.js";
import { decodeMempoolMessage, encodeMempoolTx } from "../../src/p2p/mempool-wire.js";
import { EvidenceList } from "../../src/wire/generated/tendermint/types/evidence.js";

const repo = JSON.parse(
  readFileSync(new URL("../fixtures/p2p/repo-message-vectors.json", import.meta.url), "utf8"),
);
const vectorsOf = (prefix: string): { input: string; hex: string }[] =>
  repo[Object.keys(repo).find((k) => k.startsWith(prefix))!];
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (s: string) => new Uint8Array(Buffer.from(s, "hex"));

test("TestMempoolVectors: one tx per message, byte-identical to v0.34", () => {
  const [one, text] = vectorsOf("mempool (");
  assert.equal(hex(encodeMempoolTx(Uint8Array.of(0x7b))), one!.hex);
  assert.equal(hex(encodeMempoolTx(new TextEncoder().encode("proto encoding in mempool"))), text!.hex);
  const decoded = decodeMempoolMessage(bytes(text!.hex), 1048576);
  assert.deepEqual(decoded, { kind: "txs", txs: [new TextEncoder().encode("proto encoding in mempool")] });
});

test("a mempool message over the receiver's limits, garbled or without a variant is a protocol fault", () => {
  const tx = new Uint8Array(11).fill(7);
  const ok = decodeMempoolMessage(encodeMempoolTx(tx), 11);
  assert.equal(ok.kind, "txs");
  // max_tx_bytes 10: the 11-byte tx's message is also over the derived capacity
  const big = decodeMempoolMessage(encodeMempoolTx(tx), 10);
  assert.equal(big.kind, "invalid");
  assert.match((big as { reason: string }).reason, /over the channel's capacity 14/);
  assert.equal(mempoolRecvMessageCapacity(10), 14);
  // several txs in one message (a Go node sends one, but any count is valid) within the capacity
  const two = bytes(`0a0b0a0101${"0a06"}${"07".repeat(6)}`);
  assert.deepEqual(decodeMempoolMessage(two, 10), {
    kind: "txs",
    txs: [Uint8Array.of(1), new Uint8Array(6).fill(7)],
  });
  const overCapacity = decodeMempoolMessage(bytes(`0a0f0a0101${"0a0a"}${"07".repeat(10)}`), 10);
  assert.match((overCapacity as { reason: string }).reason, /17 bytes is over the channel's capacity 14/);
  assert.match(
    (decodeMempoolMessage(bytes("0aff"), 100) as { reason: string }).reason,
    /undecodable mempool message/,
  );
  assert.deepEqual(decodeMempoolMessage(new Uint8Array(0), 100), {
    kind: "invalid",
    reason: "mempool message with no known variant",
  });
  assert.deepEqual(decodeMempoolMessage(bytes("0a00"), 100), { kind: "txs", txs: [] });
});

test("TestEvidenceVectors: a bare EvidenceList of one DuplicateVoteEvidence, byte-identical to v0.34", () => {
  const [vector] = vectorsOf("evidence (");
  const list = EvidenceList.decode(bytes(vector!.hex));
  assert.equal(list.evidence.length, 1);
  assert.equal(hex(encodeEvidenceMessage(list.evidence[0]!)), vector!.hex);
  // The vector's votes carry no signature: ValidateBasic refuses it, so a peer sending it is reported.
  const decoded = decodeEvidenceMessage(bytes(vector!.hex));
  assert.equal(decoded.kind, "invalid");
  assert.match((decoded as { reason: string }).reason, /evidence\[0\]\.duplicateVoteEvidence\.voteA/);
  assert.deepEqual(decodeEvidenceMessage(new Uint8Array(0)), { kind: "evidence", evidence: [] });
  assert.match((decodeEvidenceMessage(bytes("0a05ff")) as { reason: string }).reason, /undecodable/);
  assert.match(
    (decodeEvidenceMessage(new Uint8Array(1048577)) as { reason: string }).reason,
    /over the channel's capacity 1048576/,
  );
});
