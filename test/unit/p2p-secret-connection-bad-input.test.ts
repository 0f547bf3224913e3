// A hostile or broken peer against the secret connection. The attacker side speaks raw bytes
// with the fixed ephemeral keys of the golden handshake, so it knows the session keys; every
// case must end the victim's connection with the step's code and never anything else.
import assert from "node:assert/strict";
import { createCipheriv } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { test } from "node:test";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import type { P2pError } from "../../src/p2p/errors.js";
import { delimit, ProtoWriter } from "../../src/p2p/proto-reader.js";
import { FrameSealer } from "../../src/p2p/secret-connection/frames.js";
import { encodeAuthSig } from "../../src/p2p/secret-connection/handshake-messages.js";
import {
  makeSecretConnection,
  type SecretConnection,
} from "../../src/p2p/secret-connection/secret-connection.js";
import { eventually, socketPair } from "./p2p-test-peers.js";

const vectors = JSON.parse(
  readFileSync(new URL("../fixtures/p2p/handshake-computed.json", import.meta.url), "utf8"),
);
const A = vectors.handshake.A; // the attacker (raw bytes)
const B = vectors.handshake.B; // the victim (our code)
const bytes = (s: string) => new Uint8Array(Buffer.from(s, "hex"));
const victimKey = keyPairFromSeed(bytes(B.edSeed)).privateKey;

/** Runs the victim's handshake while the attacker writes `attack` bytes (then maybe hangs up). */
async function victimHandshake(attack: Uint8Array, endAfter = false, timeoutMs = 1500): Promise<P2pError> {
  const pair = await socketPair();
  pair.a.on("data", () => {}); // the attacker ignores what the victim says
  pair.a.write(attack);
  if (endAfter) pair.a.end();
  try {
    await makeSecretConnection(pair.b, victimKey, timeoutMs, { ephemeralPrivateKey: bytes(B.ephPriv) });
    assert.fail("handshake should have failed");
  } catch (error) {
    return error as P2pError;
  } finally {
    pair.close();
  }
}

const ephemeralMessage = (value: Uint8Array) => delimit(new ProtoWriter().bytesField(1, value).finish());

for (const [name, key] of [
  ["all-zero", "00".repeat(32)],
  ["the point 1", `01${"00".repeat(31)}`],
  ["an order-8 point", "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"],
]) {
  test(`secret connection: a low-order ephemeral key (${name}) is refused`, async () => {
    const error = await victimHandshake(ephemeralMessage(bytes(key)));
    assert.equal(error.code, "P2P_LOW_ORDER_KEY", error.message);
  });
}

for (const length of [0, 31, 33]) {
  test(`secret connection: a ${length}-byte ephemeral key is refused`, async () => {
    const error = await victimHandshake(ephemeralMessage(new Uint8Array(length).fill(9)));
    assert.equal(error.code, "P2P_BAD_EPHEMERAL_KEY", error.message);
  });
}

test("secret connection: a key message with the wrong wire type is refused", async () => {
  const error = await victimHandshake(Uint8Array.of(0x02, 0x08, 0x01));
  assert.equal(error.code, "P2P_BAD_EPHEMERAL_KEY", error.message);
});

test("secret connection: a handshake length prefix over 1 MiB is refused before reading it", async () => {
  const error = await victimHandshake(Uint8Array.of(0x81, 0x80, 0x40)); // 1048577
  assert.equal(error.code, "P2P_BAD_FRAME", error.message);
});

test("secret connection: EOF in the middle of the key is P2P_HANDSHAKE_EOF", async () => {
  const error = await victimHandshake(bytes(A.wire1).subarray(0, 20), true);
  assert.equal(error.code, "P2P_HANDSHAKE_EOF", error.message);
});

test("secret connection: silence is cut at the deadline with P2P_HANDSHAKE_TIMEOUT", async () => {
  const started = Date.now();
  const error = await victimHandshake(new Uint8Array(0), false, 150);
  assert.equal(error.code, "P2P_HANDSHAKE_TIMEOUT", error.message);
  assert.ok(Date.now() - started < 1000);
});

function authSigFrame(pub: Uint8Array, sig: Uint8Array, key = bytes(A.sendKey)): Buffer {
  return new FrameSealer(key).seal(delimit(encodeAuthSig(pub, sig)));
}

test("secret connection: a signature over something else is P2P_BAD_AUTH_SIG", async () => {
  const identity = keyPairFromSeed(bytes(A.edSeed));
  const wrongSig = signEd25519(identity.privateKey, new Uint8Array(32));
  const error = await victimHandshake(
    Buffer.concat([bytes(A.wire1), authSigFrame(identity.publicKey, wrongSig)]),
  );
  assert.equal(error.code, "P2P_BAD_AUTH_SIG");
  assert.match(error.message, /challenge verification failed/);
});

test("secret connection: a 63-byte signature is P2P_BAD_AUTH_SIG", async () => {
  const identity = keyPairFromSeed(bytes(A.edSeed));
  const error = await victimHandshake(
    Buffer.concat([bytes(A.wire1), authSigFrame(identity.publicKey, bytes(A.sig).subarray(0, 63))]),
  );
  assert.equal(error.code, "P2P_BAD_AUTH_SIG", error.message);
});

test("secret connection: a secp256k1 identity is refused (expected ed25519 pubkey)", async () => {
  const secpKey = new ProtoWriter().bytesField(2, new Uint8Array(33).fill(2)).finish();
  const body = new ProtoWriter().bytesField(1, secpKey, true).bytesField(2, bytes(A.sig)).finish();
  const frame = new FrameSealer(bytes(A.sendKey)).seal(delimit(body));
  const error = await victimHandshake(Buffer.concat([bytes(A.wire1), frame]));
  assert.equal(error.code, "P2P_BAD_AUTH_SIG");
  assert.match(error.message, /expected ed25519/);
});

test("secret connection: an AuthSig sealed with the wrong key is P2P_BAD_MAC", async () => {
  const identity = keyPairFromSeed(bytes(A.edSeed));
  const frame = authSigFrame(identity.publicKey, bytes(A.sig), bytes(A.recvKey));
  const error = await victimHandshake(Buffer.concat([bytes(A.wire1), frame]));
  assert.equal(error.code, "P2P_BAD_MAC", error.message);
});

test("secret connection: garbage instead of AuthSig is refused", async () => {
  const frame = new FrameSealer(bytes(A.sendKey)).seal(delimit(Uint8Array.of(0x0a, 0x05, 0x01)));
  const error = await victimHandshake(Buffer.concat([bytes(A.wire1), frame]));
  assert.equal(error.code, "P2P_BAD_AUTH_SIG", error.message);
});

/** The victim after a complete, valid handshake with the attacker; frames from here use nonce 1... */
async function establishedVictim(): Promise<{
  victim: SecretConnection;
  attacker: Socket;
  sealer: FrameSealer;
  close: () => void;
}> {
  const pair = await socketPair();
  pair.a.on("data", () => {});
  const sealer = new FrameSealer(bytes(A.sendKey));
  const identity = keyPairFromSeed(bytes(A.edSeed));
  pair.a.write(
    Buffer.concat([bytes(A.wire1), sealer.seal(delimit(encodeAuthSig(identity.publicKey, bytes(A.sig))))]),
  );
  const victim = await makeSecretConnection(pair.b, victimKey, 3000, {
    ephemeralPrivateKey: bytes(B.ephPriv),
  });
  assert.equal(victim.remoteId, A.nodeId);
  return { victim, attacker: pair.a, sealer, close: pair.close };
}

async function closeReason(victim: SecretConnection): Promise<P2pError> {
  const reasons: P2pError[] = [];
  victim.onClose((e) => reasons.push(e));
  await eventually(() => reasons.length > 0);
  return reasons[0];
}

test("secret connection: a valid frame after the handshake is read", async () => {
  const { victim, attacker, sealer, close } = await establishedVictim();
  attacker.write(sealer.seal(delimit(new TextEncoder().encode("ok"))));
  assert.equal(new TextDecoder().decode(await victim.readMessage(10)), "ok");
  close();
});

test("secret connection: a tampered frame closes with P2P_BAD_MAC", async () => {
  const { victim, attacker, sealer, close } = await establishedVictim();
  const frame = sealer.seal(Uint8Array.of(1, 2, 3));
  frame[100] ^= 1;
  attacker.write(frame);
  assert.equal((await closeReason(victim)).code, "P2P_BAD_MAC");
  close();
});

test("secret connection: a tampered tag closes with P2P_BAD_MAC", async () => {
  const { victim, attacker, sealer, close } = await establishedVictim();
  const frame = sealer.seal(Uint8Array.of(1, 2, 3));
  frame[1043] ^= 0x80;
  attacker.write(frame);
  assert.equal((await closeReason(victim)).code, "P2P_BAD_MAC");
  close();
});

test("secret connection: a replayed frame closes with P2P_BAD_MAC", async () => {
  const { victim, attacker, sealer, close } = await establishedVictim();
  const frame = sealer.seal(delimit(Uint8Array.of(1)));
  attacker.write(frame);
  attacker.write(frame);
  assert.deepEqual(await victim.readMessage(10), Uint8Array.of(1));
  assert.equal((await closeReason(victim)).code, "P2P_BAD_MAC");
  close();
});

test("secret connection: reordered frames close with P2P_BAD_MAC", async () => {
  const { victim, attacker, sealer, close } = await establishedVictim();
  const first = sealer.seal(Uint8Array.of(1));
  const second = sealer.seal(Uint8Array.of(2));
  attacker.write(Buffer.concat([second, first]));
  assert.equal((await closeReason(victim)).code, "P2P_BAD_MAC");
  close();
});

test("secret connection: a chunk length over 1024 closes with P2P_BAD_FRAME", async () => {
  const { victim, attacker, sealer, close } = await establishedVictim();
  const plain = Buffer.alloc(1028);
  plain.writeUInt32LE(2000, 0);
  const cipher = createCipheriv("chacha20-poly1305", bytes(A.sendKey), sealer.counter.nonce, {
    authTagLength: 16,
  });
  const body = cipher.update(plain);
  cipher.final();
  attacker.write(Buffer.concat([body, cipher.getAuthTag()]));
  const reason = await closeReason(victim);
  assert.equal(reason.code, "P2P_BAD_FRAME");
  assert.match(reason.message, /greater than 1024/);
  close();
});

test("secret connection: a truncated frame then EOF closes with P2P_CLOSED_BY_PEER", async () => {
  const { victim, attacker, sealer, close } = await establishedVictim();
  attacker.end(sealer.seal(Uint8Array.of(1)).subarray(0, 500));
  assert.equal((await closeReason(victim)).code, "P2P_CLOSED_BY_PEER");
  close();
});

test("secret connection: a message length over the reader's limit is refused", async () => {
  const { victim, attacker, sealer, close } = await establishedVictim();
  attacker.write(sealer.seal(Uint8Array.of(0xe8, 0x07))); // 1000
  await assert.rejects(victim.readMessage(999), (e: P2pError) => e.code === "P2P_BAD_FRAME");
  close();
});

test("secret connection: the nonce counter refuses to wrap", () => {
  const sealer = new FrameSealer(new Uint8Array(32));
  sealer.counter.set(0xffffffff, 0xffffffff);
  assert.throws(
    () => sealer.seal(Uint8Array.of(1)),
    (e: P2pError) => e.code === "P2P_NONCE_OVERFLOW",
  );
});
