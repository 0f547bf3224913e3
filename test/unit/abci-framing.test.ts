import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AbciError } from "../../src/abci/errors.js";
import {
  encodeLengthPrefix,
  FrameDecoder,
  frameMessage,
  MAX_ABCI_MESSAGE_SIZE,
  readLengthPrefix,
} from "../../src/abci/framing.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("abci framing: zigzag varint length prefix", () => {
  it("writes a length L as the unsigned varint of 2L (reference §6.1 vectors)", () => {
    assert.equal(hex(encodeLengthPrefix(0)), "00");
    assert.equal(hex(encodeLengthPrefix(2)), "04"); // Flush request 12 00
    assert.equal(hex(encodeLengthPrefix(9)), "12"); // Echo "hello" request
    assert.equal(hex(encodeLengthPrefix(63)), "7e");
    assert.equal(hex(encodeLengthPrefix(64)), "8001");
    assert.equal(hex(encodeLengthPrefix(MAX_ABCI_MESSAGE_SIZE)), "80808064");
  });

  it("frames the echo request of the reference byte for byte", () => {
    const payload = Buffer.from("0a070a0568656c6c6f", "hex");
    assert.equal(hex(frameMessage(payload)), "120a070a0568656c6c6f");
  });

  it("reads back every length it writes", () => {
    for (const n of [0, 1, 63, 64, 127, 128, 8191, 8192, 1 << 20, MAX_ABCI_MESSAGE_SIZE]) {
      const p = encodeLengthPrefix(n);
      assert.deepEqual(readLengthPrefix(p, 0), { length: n, size: p.length });
    }
  });

  it("asks for more bytes when the varint is cut", () => {
    assert.equal(readLengthPrefix(Uint8Array.of(0x80), 0), undefined);
    assert.equal(readLengthPrefix(Uint8Array.of(), 0), undefined);
  });

  it("refuses a negative length, naming it", () => {
    // zigzag 1 = -1, 3 = -2
    assert.throws(
      () => readLengthPrefix(Uint8Array.of(0x03), 0, MAX_ABCI_MESSAGE_SIZE, "mempool"),
      (e: unknown) =>
        e instanceof AbciError &&
        e.code === "ABCI_FRAME_NEGATIVE_LENGTH" &&
        /mempool/.test(e.message) &&
        /-2/.test(e.message),
    );
  });

  it("refuses a length above 100 MB", () => {
    const p = encodeLengthPrefix(MAX_ABCI_MESSAGE_SIZE + 1);
    assert.throws(
      () => readLengthPrefix(p, 0),
      (e: unknown) =>
        e instanceof AbciError && e.code === "ABCI_FRAME_TOO_LARGE" && /104857601/.test(e.message),
    );
  });

  it("refuses a varint longer than 10 bytes", () => {
    const p = new Uint8Array(11).fill(0xff);
    assert.throws(
      () => readLengthPrefix(p, 0),
      (e: unknown) => e instanceof AbciError && e.code === "ABCI_FRAME_BAD_VARINT",
    );
  });
});

describe("abci framing: FrameDecoder", () => {
  it("splits several frames out of one chunk and keeps the remainder", () => {
    const d = new FrameDecoder();
    const a = frameMessage(Uint8Array.of(1, 2, 3));
    const b = frameMessage(Uint8Array.of());
    const c = frameMessage(Uint8Array.of(9, 9));
    const all = Buffer.concat([a, b, c]);
    const out = d.push(all.subarray(0, all.length - 1));
    assert.deepEqual(
      out.map((x) => [...x]),
      [[1, 2, 3], []],
    );
    assert.equal(d.buffered, c.length - 1);
    assert.deepEqual(
      d.push(all.subarray(all.length - 1)).map((x) => [...x]),
      [[9, 9]],
    );
    assert.equal(d.buffered, 0);
  });

  it("reassembles a frame fed one byte at a time", () => {
    const d = new FrameDecoder();
    const payload = new Uint8Array(300).map((_, i) => i & 0xff);
    const framed = frameMessage(payload);
    const got: Uint8Array[] = [];
    for (const byte of framed) got.push(...d.push(Uint8Array.of(byte)));
    assert.equal(got.length, 1);
    assert.deepEqual([...got[0]!], [...payload]);
  });

  it("gathers a large frame from many chunks", () => {
    const d = new FrameDecoder();
    const payload = new Uint8Array(200_000).fill(7);
    const framed = Buffer.from(frameMessage(payload));
    const got: Uint8Array[] = [];
    for (let i = 0; i < framed.length; i += 65536) got.push(...d.push(framed.subarray(i, i + 65536)));
    assert.equal(got.length, 1);
    assert.equal(got[0]!.length, 200_000);
    assert.equal(d.buffered, 0);
  });

  it("honours a smaller maximum and reports where", () => {
    const d = new FrameDecoder(10, "query");
    assert.throws(
      () => d.push(frameMessage(new Uint8Array(11))),
      (e: unknown) => e instanceof AbciError && e.code === "ABCI_FRAME_TOO_LARGE" && e.connection === "query",
    );
  });
});
