// tendermint.p2p.Packet, the unit of the multiplexed connection: a oneof of PacketPing (1),
// PacketPong (2) and PacketMsg (3) {channel_id int32 = 1, eof bool = 2, data bytes = 3}, each
// written varint-delimited into the secret connection's byte stream. Hand-coded because it is
// the hot path and because a hostile peer's bytes must be walked strictly.

import { varintLength, writeVarint } from "../../wire/varint-bytes.js";
import { P2pError } from "../errors.js";
import { ProtoDecodeError, ProtoReader, WIRE_LEN, WIRE_VARINT } from "../proto-reader.js";

export type Packet =
  | { type: "ping" }
  | { type: "pong" }
  | { type: "msg"; channelId: number; eof: boolean; data: Uint8Array };

/** Delimited ping / pong as they appear on the stream. */
export const PING_DELIMITED = Uint8Array.of(0x02, 0x0a, 0x00);
export const PONG_DELIMITED = Uint8Array.of(0x02, 0x12, 0x00);

function packetMsgBodyLength(channelId: number, eof: boolean, dataLength: number): number {
  const msg =
    (channelId !== 0 ? 1 + varintLength(channelId) : 0) +
    (eof ? 2 : 0) +
    (dataLength !== 0 ? 1 + varintLength(dataLength) + dataLength : 0);
  return 1 + varintLength(msg) + msg;
}

/**
 * The largest Packet body (prefix excluded) a peer may send: Packet{msg{channel 1, eof, data of
 * maxPayload bytes}}, 1034 for the default 1024. A longer length prefix closes the connection.
 */
export function maxPacketBodySize(maxPacketMsgPayloadSize: number): number {
  return packetMsgBodyLength(1, true, maxPacketMsgPayloadSize);
}

/** Bytes of one delimited PacketMsg (prefix included): what writePacketMsgDelimited writes. */
export function packetMsgDelimitedLength(channelId: number, eof: boolean, dataLength: number): number {
  const bodyLength = packetMsgBodyLength(channelId, eof, dataLength);
  return varintLength(bodyLength) + bodyLength;
}

/**
 * Writes one delimited PacketMsg, uvarint(len) ‖ Packet{packet_msg{...}}, into `out` at `at` and
 * returns where it ends; the caller sized `out` (packetMsgDelimitedLength). Defaults are omitted
 * (PEX has no channel_id). Written in place so a batch of packets is one buffer, not one
 * allocation per packet and a copy of each into the batch.
 */
export function writePacketMsgDelimited(
  out: Uint8Array,
  at: number,
  channelId: number,
  eof: boolean,
  data: Uint8Array,
): number {
  const msgLength =
    (channelId !== 0 ? 1 + varintLength(channelId) : 0) +
    (eof ? 2 : 0) +
    (data.length !== 0 ? 1 + varintLength(data.length) + data.length : 0);
  at = writeVarint(out, at, 1 + varintLength(msgLength) + msgLength);
  out[at++] = 0x1a; // field 3, LEN
  at = writeVarint(out, at, msgLength);
  if (channelId !== 0) {
    out[at++] = 0x08;
    at = writeVarint(out, at, channelId);
  }
  if (eof) {
    out[at++] = 0x10;
    out[at++] = 0x01;
  }
  if (data.length !== 0) {
    out[at++] = 0x1a;
    at = writeVarint(out, at, data.length);
    out.set(data, at);
    at += data.length;
  }
  return at;
}

/** One delimited PacketMsg in a buffer of its own. */
export function encodePacketMsgDelimited(channelId: number, eof: boolean, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(packetMsgDelimitedLength(channelId, eof, data.length));
  writePacketMsgDelimited(out, 0, channelId, eof, data);
  return out;
}

/** Decodes a Packet body; any malformed or empty packet is P2P_BAD_PACKET ("unknown message type"). */
export function decodePacket(body: Uint8Array): Packet {
  return decodeCanonicalPacketMsg(body) ?? decodePacketGeneral(body);
}

/** The strict field-by-field decoder behind decodePacket (tests hold the two to one answer). */
export function decodePacketGeneral(body: Uint8Array): Packet {
  let packet: Packet | undefined;
  try {
    const reader = new ProtoReader(body, "Packet");
    while (!reader.done) {
      const { field, wire } = reader.tag();
      if (field === 1 || field === 2 || field === 3) {
        reader.expect(field, wire, WIRE_LEN);
        const inner = reader.lengthDelimited();
        if (field === 3) packet = decodePacketMsg(inner);
        else {
          skipAll(new ProtoReader(inner, field === 1 ? "PacketPing" : "PacketPong"));
          packet = { type: field === 1 ? "ping" : "pong" };
        }
      } else reader.skip(wire);
    }
  } catch (error) {
    if (error instanceof ProtoDecodeError) throw new P2pError("P2P_BAD_PACKET", error.message);
    throw error;
  }
  if (packet === undefined)
    throw new P2pError("P2P_BAD_PACKET", "Packet: unknown message type (empty oneof)");
  return packet;
}

function decodePacketMsg(bytes: Uint8Array): Packet {
  const reader = new ProtoReader(bytes, "PacketMsg");
  let channelId = 0;
  let eof = false;
  let data: Uint8Array = new Uint8Array(0);
  while (!reader.done) {
    const { field, wire } = reader.tag();
    if (field === 1) {
      reader.expect(field, wire, WIRE_VARINT);
      // int32 on the wire; anything outside 0..255 cannot name a channel (v0.34: "unknown channel").
      channelId = reader.varint();
    } else if (field === 2) {
      reader.expect(field, wire, WIRE_VARINT);
      eof = reader.varint() !== 0;
    } else if (field === 3) {
      reader.expect(field, wire, WIRE_LEN);
      data = reader.lengthDelimited();
    } else reader.skip(wire);
  }
  return { type: "msg", channelId, eof, data };
}

function skipAll(reader: ProtoReader): void {
  while (!reader.done) reader.skip(reader.tag().wire);
}

/** A varint of at most two bytes at `at` (a value < 16384): [value, next position], or undefined. */
function shortVarint(bytes: Uint8Array, at: number): [number, number] | undefined {
  if (at >= bytes.length) return undefined;
  const first = bytes[at];
  if (first < 0x80) return [first, at + 1];
  if (at + 1 >= bytes.length) return undefined;
  const second = bytes[at + 1];
  if (second >= 0x80 || second === 0) return undefined;
  return [(first & 0x7f) | (second << 7), at + 2];
}

/**
 * The PacketMsg as v0.34 and we write it (fields 1, 2, 3 in order, each at most once, channel
 * and lengths in short varints, eof as 1), read without a ProtoReader: the receive path's one
 * shape per packet. Anything else — other fields, other orders, long varints, trailing bytes —
 * returns undefined and goes through the strict general decoder, so both agree on every input.
 */
function decodeCanonicalPacketMsg(body: Uint8Array): Packet | undefined {
  if (body[0] !== 0x1a) return undefined;
  const msg = shortVarint(body, 1);
  if (msg === undefined || msg[1] + msg[0] !== body.length) return undefined;
  let at = msg[1];
  let channelId = 0;
  let eof = false;
  let data: Uint8Array = EMPTY_DATA;
  if (at < body.length && body[at] === 0x08) {
    if (at + 1 >= body.length || body[at + 1] >= 0x80) return undefined;
    channelId = body[at + 1];
    at += 2;
  }
  if (at < body.length && body[at] === 0x10) {
    if (at + 1 >= body.length || body[at + 1] !== 0x01) return undefined;
    eof = true;
    at += 2;
  }
  if (at < body.length && body[at] === 0x1a) {
    const length = shortVarint(body, at + 1);
    if (length === undefined || length[1] + length[0] !== body.length) return undefined;
    data = body.subarray(length[1], body.length);
    at = body.length;
  }
  if (at !== body.length) return undefined;
  return { type: "msg", channelId, eof, data };
}

const EMPTY_DATA = new Uint8Array(0);
