// Varints and length prefixes against reference §6.1, §7.3 and §7.4: the ABCI zigzag framing, the
// protoio unsigned prefix, and int64 varints of negative values.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WireError } from "../../src/wire/errors.js";
import { Request, Response } from "../../src/wire/generated/tendermint/abci/types.js";
import {
  decodeUvarint,
  decodeZigzagVarint,
  encodeInt64Varint,
  encodeUvarint,
  encodeZigzagVarint,
  lengthPrefixed,
} from "../../src/wire/varint.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const concat = (a: Uint8Array, b: Uint8Array) => Uint8Array.from([...a, ...b]);

describe("ABCI framing (reference §6.1)", () => {
  it("Echo request", () => {
    const body = Request.encode({ value: { $case: "echo", echo: { message: "hello" } } }).finish();
    assert.equal(hex(concat(encodeZigzagVarint(body.length), body)), "120a070a0568656c6c6f");
  });
  it("Flush request and response", () => {
    const req = Request.encode({ value: { $case: "flush", flush: {} } }).finish();
    const res = Response.encode({ value: { $case: "flush", flush: {} } }).finish();
    assert.equal(hex(concat(encodeZigzagVarint(req.length), req)), "041200");
    assert.equal(hex(concat(encodeZigzagVarint(res.length), res)), "041a00");
  });
});

describe("varints", () => {
  it("pol_round −1 is the 10-byte int64 varint", () =>
    assert.equal(hex(encodeInt64Varint(-1n)), "ffffffffffffffffff01"));
  it("Go's zero time seconds", () =>
    assert.equal(hex(encodeInt64Varint(-62135596800n)), "8092b8c398feffffff01"));
  it("uvarint edges", () => {
    assert.equal(hex(encodeUvarint(0)), "00");
    assert.equal(hex(encodeUvarint(127)), "7f");
    assert.equal(hex(encodeUvarint(128)), "8001");
    assert.equal(hex(encodeUvarint(300)), "ac02");
    assert.equal(hex(encodeUvarint(2 ** 40)), "808080808020");
    assert.equal(hex(encodeUvarint((1n << 64n) - 1n)), "ffffffffffffffffff01");
    assert.throws(() => encodeUvarint(-1), WireError);
    assert.throws(() => encodeUvarint(1n << 64n), WireError);
  });
  it("decoding inverts encoding, waits for more input, and refuses overlong varints", () => {
    for (const v of [0n, 1n, 127n, 128n, 300n, 1n << 35n, (1n << 64n) - 1n])
      assert.deepEqual(decodeUvarint(encodeUvarint(v)), { value: v, length: encodeUvarint(v).length });
    for (const v of [0n, -1n, 1n, -64n, 63n, -(1n << 63n), (1n << 63n) - 1n])
      assert.equal(decodeZigzagVarint(encodeZigzagVarint(v))!.value, v);
    assert.equal(decodeUvarint(Uint8Array.of(0x80, 0x80)), undefined);
    assert.throws(() => decodeUvarint(new Uint8Array(11).fill(0x80)), WireError);
    assert.throws(
      () => decodeUvarint(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02)),
      WireError,
    );
  });
  it("zigzag of common height 7 and of −1", () => {
    assert.equal(hex(encodeZigzagVarint(7)), "0e");
    assert.equal(hex(encodeZigzagVarint(-1)), "01");
  });
  it("lengthPrefixed prepends the uvarint length", () => {
    assert.equal(hex(lengthPrefixed(Uint8Array.of(1, 2, 3))), "03010203");
    assert.equal(hex(lengthPrefixed(new Uint8Array(200))).slice(0, 4), "c801");
  });
});

describe("decodeMessage", () => {
  it("turns truncated input and oversize into WireErrors naming the message", async () => {
    const { decodeMessage } = await import("../../src/wire/decode.js");
    const { Vote } = await import("../../src/wire/generated/tendermint/types/types.js");
    const bytes = Vote.encode({
      type: 1,
      height: 5n,
      round: 0,
      blockId: { hash: new Uint8Array(32), partSetHeader: { total: 1, hash: new Uint8Array(32) } },
      timestamp: { seconds: 1n, nanos: 0 },
      validatorAddress: new Uint8Array(20),
      validatorIndex: 0,
      signature: new Uint8Array(64),
    }).finish();
    assert.equal(decodeMessage(Vote, bytes, 1000, "vote").height, 5n);
    assert.throws(
      () => decodeMessage(Vote, bytes.subarray(0, bytes.length - 3), 1000, "vote from peer x"),
      (e: unknown) =>
        e instanceof WireError && e.code === "WIRE_DECODE_FAILED" && e.message.startsWith("vote from peer x"),
    );
    assert.throws(
      () => decodeMessage(Vote, bytes, 10, "vote"),
      (e: unknown) => e instanceof WireError && e.code === "WIRE_MESSAGE_TOO_LARGE",
    );
    assert.throws(() => decodeMessage(Vote, Uint8Array.of(0x0f), 10, "vote"), WireError); // wire type 7
  });
});

describe("int64 fields across the decoder's fast-path boundary", () => {
  it("round-trip exactly at 2^49 ± 1, 2^53 ± 1, the int64 limits and the uint64 maximum", async () => {
    const { Message } = await import("../../src/wire/generated/tendermint/blockchain/types.js");
    const { Consensus } = await import("../../src/wire/generated/tendermint/version/types.js");
    const heights = [
      0n,
      1n,
      (1n << 49n) - 1n,
      1n << 49n,
      (1n << 49n) + 1n,
      (1n << 53n) - 1n,
      (1n << 53n) + 1n,
    ];
    for (const h of [...heights, ...heights.map((x) => -x), (1n << 63n) - 1n, -(1n << 63n)]) {
      const bytes = Message.encode({
        sum: { $case: "statusResponse", statusResponse: { height: h, base: BigInt.asIntN(64, -h) } },
      }).finish();
      const back = Message.decode(bytes);
      assert.deepEqual(
        back.sum,
        { $case: "statusResponse", statusResponse: { height: h, base: BigInt.asIntN(64, -h) } },
        `height ${h}`,
      );
    }
    for (const v of [(1n << 64n) - 1n, 1n << 63n, (1n << 49n) - 1n]) {
      assert.equal(Consensus.decode(Consensus.encode({ block: v, app: v }).finish()).block, v);
    }
  });
});
