// The transport's encodings against v0.34.35's own test vectors (TestConnVectors) and the
// computed stream bytes: Packets, delimited ping/pong, channel messages on the stream, the
// 2500-byte split, and DefaultNodeInfo (full and all-default).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  decodePacket,
  encodePacketMsgDelimited,
  maxPacketBodySize,
  PING_DELIMITED,
  PONG_DELIMITED,
} from "../../src/p2p/mconnection/packet.js";
import { decodeNodeInfo, encodeNodeInfo } from "../../src/p2p/node-info.js";
import { delimit } from "../../src/p2p/proto-reader.js";
import type { NodeInfo } from "../../src/p2p/types.js";

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/p2p/${name}`, import.meta.url), "utf8"));
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (s: string) => new Uint8Array(Buffer.from(s, "hex"));
const repo = fixture("repo-message-vectors.json");
const computed = fixture("handshake-computed.json");
const packetVectors =
  repo["p2p.Packet (p2p/conn/connection_test.go TestConnVectors; tendermint.p2p.Packet, not delimited)"];

/** Packet body without its uvarint prefix. */
const body = (delimited: Uint8Array) => delimited.subarray(delimited[0] < 0x80 ? 1 : 2);

test("TestConnVectors: ping, pong and a PacketMsg encode and decode", () => {
  assert.equal(packetVectors.length, 3);
  assert.equal(hex(body(PING_DELIMITED)), packetVectors[0].hex);
  assert.equal(hex(body(PONG_DELIMITED)), packetVectors[1].hex);
  const data = new TextEncoder().encode("data transmitted over the wire");
  assert.equal(hex(body(encodePacketMsgDelimited(1, false, data))), packetVectors[2].hex);
  assert.deepEqual(decodePacket(bytes(packetVectors[0].hex)), { type: "ping" });
  assert.deepEqual(decodePacket(bytes(packetVectors[1].hex)), { type: "pong" });
  const msg = decodePacket(bytes(packetVectors[2].hex));
  assert.equal(msg.type, "msg");
  if (msg.type === "msg") {
    assert.equal(msg.channelId, 1);
    assert.equal(msg.eof, false);
    assert.equal(new TextDecoder().decode(msg.data), "data transmitted over the wire");
  }
});

test("stream bytes: ping/pong, NewRoundStep on 0x20, PEX request on 0x00 (no channel_id)", () => {
  const m = computed.mconnection;
  assert.equal(hex(PING_DELIMITED), m.ping);
  assert.equal(hex(PONG_DELIMITED), m.pong);
  const nrs = m.newRoundStepOnStateChannel0x20;
  assert.equal(hex(encodePacketMsgDelimited(0x20, true, bytes(nrs.reactorMessageHex))), nrs.streamHex);
  const pex = m.pexRequestOnChannel0x00;
  assert.equal(hex(encodePacketMsgDelimited(0x00, true, bytes(pex.reactorMessageHex))), pex.streamHex);
  const decoded = decodePacket(body(bytes(pex.streamHex)));
  assert.deepEqual(decoded, { type: "msg", channelId: 0, eof: true, data: bytes(pex.reactorMessageHex) });
});

test("max packet body is 1034 bytes with the default payload", () => {
  assert.equal(maxPacketBodySize(1024), computed.mconnection.maxPacketBodyLen);
  const full = encodePacketMsgDelimited(0x21, true, new Uint8Array(1024));
  assert.equal(full.length - 2, 1034);
});

test("a 2500-byte message on 0x21 splits into 1034/1034/464-byte packets", () => {
  const message = new Uint8Array(2500);
  const split = computed.mconnection.split2500ByteMessageOnChannel0x21;
  let offset = 0;
  for (const part of split) {
    const data = message.subarray(offset, offset + part.dataLen);
    offset += part.dataLen;
    const packet = encodePacketMsgDelimited(0x21, part.eof, data);
    const header = bytes(part.prefixAndHeaderHex);
    assert.equal(hex(packet.subarray(0, header.length)), part.prefixAndHeaderHex);
    // Go counts the whole delimited packet for the last one and the body for the full ones.
    assert.ok(packet.length === part.totalBytes || packet.length - 2 === part.totalBytes);
  }
  assert.equal(offset, 2500);
});

test("DefaultNodeInfo: the computed example encodes byte for byte and decodes back", () => {
  const ex = computed.nodeInfoExample;
  const info: NodeInfo = {
    protocolVersion: { p2p: 8n, block: 11n, app: 0n },
    defaultNodeId: ex.input.id,
    listenAddr: ex.input.listen_addr,
    network: ex.input.network,
    version: ex.input.version,
    channels: bytes(ex.input.channels),
    moniker: ex.input.moniker,
    other: { txIndex: ex.input.other.tx_index, rpcAddress: ex.input.other.rpc_address },
  };
  const encoded = encodeNodeInfo(info);
  assert.equal(encoded.length, ex.bodyLen);
  assert.equal(hex(delimit(encoded)), ex.delimitedHex);
  assert.deepEqual(decodeNodeInfo(encoded), info);
});

test("DefaultNodeInfo: all defaults still emit protocol_version and other", () => {
  const empty: NodeInfo = {
    protocolVersion: { p2p: 0n, block: 0n, app: 0n },
    defaultNodeId: "",
    listenAddr: "",
    network: "",
    version: "",
    channels: new Uint8Array(0),
    moniker: "",
    other: { txIndex: "", rpcAddress: "" },
  };
  assert.equal(hex(delimit(encodeNodeInfo(empty))), computed.nodeInfoExample.allDefaultsDelimitedHex);
});
