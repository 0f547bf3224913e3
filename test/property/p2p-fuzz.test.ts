// Fuzzing the transport with generated frames, packets, streams and handshake messages. Every
// input must either decode or fail with a P2pError (never another exception, never a hang), a
// fed MConnection must end open or closed with a code, and memory must stay bounded.
// Fixed seed; P2P_FUZZ_SCALE=n multiplies every run count (the CI default is 1: 127,800 inputs).
import assert from "node:assert/strict";
import { Duplex } from "node:stream";
import { test } from "node:test";
import fc from "fast-check";
import { keyPairFromSeed } from "../../src/crypto/ed25519-keys.js";
import { channelMessageProblem } from "../../src/p2p/channel-message-check.js";
import { v034ChannelDescriptors } from "../../src/p2p/channels.js";
import { P2pError } from "../../src/p2p/errors.js";
import { DEFAULT_MCONNECTION_CONFIG, MConnection } from "../../src/p2p/mconnection/mconnection.js";
import {
  decodePacket,
  encodePacketMsgDelimited,
  PING_DELIMITED,
  PONG_DELIMITED,
} from "../../src/p2p/mconnection/packet.js";
import { decodeNodeInfo, nodeInfoProblem } from "../../src/p2p/node-info.js";
import { FrameOpener, SEALED_FRAME_SIZE } from "../../src/p2p/secret-connection/frames.js";
import { decodeAuthSig, decodeEphemeralKey } from "../../src/p2p/secret-connection/handshake-messages.js";
import { makeSecretConnection } from "../../src/p2p/secret-connection/secret-connection.js";
import { MemoryTransport } from "../unit/p2p-test-peers.js";

const SEED = 0x5eed_0034;
const SCALE = Number(process.env.P2P_FUZZ_SCALE ?? "1");
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
let total = 0;

/** Runs `f`, accepting only success or a P2pError. */
function onlyP2pErrors(f: () => void): void {
  try {
    f();
  } catch (error) {
    if (!(error instanceof P2pError)) throw error;
    assert.ok(error.message.length > 0);
  }
}

test("fuzz: decodePacket on arbitrary bytes", () => {
  const n = runs(45_000);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 1100 }), (body) => onlyP2pErrors(() => decodePacket(body))),
    { seed: SEED, numRuns: n },
  );
  total += n;
});

test("fuzz: decodePacket on mutated valid packets", () => {
  const n = runs(20_000);
  const valid = fc
    .tuple(fc.integer({ min: 0, max: 300 }), fc.boolean(), fc.uint8Array({ maxLength: 64 }))
    .map(([ch, eof, data]) => encodePacketMsgDelimited(ch, eof, data).subarray(1));
  fc.assert(
    fc.property(valid, fc.nat(), fc.integer({ min: 0, max: 255 }), (packet, at, value) => {
      const mutated = packet.slice();
      if (mutated.length > 0) mutated[at % mutated.length] = value;
      onlyP2pErrors(() => decodePacket(mutated));
    }),
    { seed: SEED, numRuns: n },
  );
  total += n;
});

/** A stream of valid packets, garbage and pings, cut into arbitrary chunks. */
const streamPiece = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(0x00, 0x20, 0x21, 0x22, 0x30, 0x40, 0x99),
      fc.boolean(),
      fc.uint8Array({ maxLength: 1100 }),
    )
    .map(([ch, eof, data]) => encodePacketMsgDelimited(ch, eof, data)),
  fc.constant(PING_DELIMITED),
  fc.constant(PONG_DELIMITED),
  fc.uint8Array({ maxLength: 40 }),
);

test("fuzz: MConnection fed arbitrary streams ends open or closed with a code", () => {
  const n = runs(25_000);
  const descriptors = v034ChannelDescriptors();
  fc.assert(
    fc.property(
      fc.array(streamPiece, { maxLength: 8 }),
      fc.array(fc.integer({ min: 1, max: 2000 }), { maxLength: 8 }),
      (pieces, cuts) => {
        const transport = new MemoryTransport();
        const connection = new MConnection(transport, descriptors, DEFAULT_MCONNECTION_CONFIG, {
          checkMessage: channelMessageProblem,
        });
        let closes = 0;
        let code = "";
        connection.onClose((r) => {
          closes++;
          code = r.code;
        });
        connection.onMessage(() => {});
        connection.start();
        const stream = Buffer.concat(pieces);
        let at = 0;
        for (const cut of cuts) {
          transport.feed(stream.subarray(at, at + cut));
          at += cut;
        }
        transport.feed(stream.subarray(at));
        assert.ok(closes <= 1);
        if (closes === 1) assert.match(code, /^P2P_/);
        connection.close("fuzz case over");
      },
    ),
    { seed: SEED, numRuns: n },
  );
  total += n;
});

test("fuzz: NodeInfo decode and validation on arbitrary bytes", () => {
  const n = runs(10_000);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (body) =>
      onlyP2pErrors(() => {
        const info = decodeNodeInfo(body);
        const problem = nodeInfoProblem(info);
        assert.ok(problem === undefined || typeof problem === "string");
      }),
    ),
    { seed: SEED, numRuns: n },
  );
  total += n;
});

test("fuzz: handshake messages (ephemeral key, AuthSig) on arbitrary bytes", () => {
  const n = runs(10_000);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (body) => {
      onlyP2pErrors(() => decodeEphemeralKey(body));
      onlyP2pErrors(() => decodeAuthSig(body));
    }),
    { seed: SEED, numRuns: n },
  );
  total += n;
});

test("fuzz: reactor message check on arbitrary bytes", () => {
  const n = runs(15_000);
  fc.assert(
    fc.property(
      fc.constantFrom(0x00, 0x20, 0x21, 0x30, 0x38, 0x40, 0x60, 0x61),
      fc.uint8Array({ maxLength: 200 }),
      (ch, body) => {
        const problem = channelMessageProblem(ch, body);
        assert.ok(problem === undefined || problem.length > 0);
      },
    ),
    { seed: SEED, numRuns: n },
  );
  total += n;
});

test("fuzz: arbitrary sealed frames never open", () => {
  const n = runs(2_000);
  const opener = new FrameOpener(new Uint8Array(32).fill(7));
  fc.assert(
    fc.property(fc.uint8Array({ minLength: SEALED_FRAME_SIZE, maxLength: SEALED_FRAME_SIZE }), (frame) => {
      assert.throws(
        () => opener.open(frame),
        (e: P2pError) => e.code === "P2P_BAD_MAC",
      );
    }),
    { seed: SEED, numRuns: n },
  );
  total += n;
});

/** A socket stand-in: pushes `input`, then EOF; swallows what is written. */
function scriptedSocket(input: Uint8Array): Duplex {
  const socket = new Duplex({
    read() {},
    write(_chunk, _enc, done) {
      done();
    },
  });
  setImmediate(() => {
    socket.push(input);
    socket.push(null);
  });
  return socket;
}

test("fuzz: secret handshake fed arbitrary bytes fails with a code, never hangs", async () => {
  const n = runs(800);
  const key = keyPairFromSeed(new Uint8Array(32).fill(1)).privateKey;
  const keyMessage = (pub: Uint8Array) => Buffer.concat([Uint8Array.of(0x22, 0x0a, 0x20), pub]);
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.uint8Array({ maxLength: 120 }),
        fc
          .tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 1200 }))
          .map(([pub, rest]) => Buffer.concat([keyMessage(pub), rest])),
      ),
      async (input) => {
        const started = Date.now();
        await assert.rejects(
          makeSecretConnection(scriptedSocket(input), key, 2000),
          (e: Error) => e instanceof P2pError,
        );
        assert.ok(Date.now() - started < 1000, "failed promptly (EOF, not the deadline)");
      },
    ),
    { seed: SEED, numRuns: n },
  );
  total += n;
});

test("fuzz: totals and memory", () => {
  global.gc?.();
  const heapMb = process.memoryUsage().heapUsed / 1e6;
  console.log(`p2p fuzz: ${total} generated inputs (scale ${SCALE}), heap ${heapMb.toFixed(0)} MB`);
  assert.ok(total >= 100_000 * SCALE || SCALE < 1);
  assert.ok(heapMb < 1000, `heap ${heapMb} MB`);
});
