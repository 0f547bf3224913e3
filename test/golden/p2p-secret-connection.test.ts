// The secret connection against v0.34's golden HKDF file and the computed full handshake
// (RFC 7748 ephemeral keys, RFC 8032 identity keys): keys, challenge, AuthSig and the exact
// first bytes each side puts on the wire.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { test } from "node:test";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { nodeIdFromPublicKey } from "../../src/p2p/node-id.js";
import { delimit } from "../../src/p2p/proto-reader.js";
import { makeEphemeralKeyPair, sharedSecret } from "../../src/p2p/secret-connection/ephemeral-keys.js";
import { FrameOpener, FrameSealer } from "../../src/p2p/secret-connection/frames.js";
import { encodeAuthSig, encodeEphemeralKey } from "../../src/p2p/secret-connection/handshake-messages.js";
import {
  deriveSessionKeys,
  hkdfSecretConnection,
  secretConnectionChallenge,
  sortEphemeralKeys,
} from "../../src/p2p/secret-connection/key-schedule.js";
import { makeSecretConnection } from "../../src/p2p/secret-connection/secret-connection.js";

const fixture = (name: string) => new URL(`../fixtures/p2p/${name}`, import.meta.url);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const bytes = (s: string) => new Uint8Array(Buffer.from(s, "hex"));
const vectors = JSON.parse(readFileSync(fixture("handshake-computed.json"), "utf8"));
const A = vectors.handshake.A;
const B = vectors.handshake.B;

const goldenRows = readFileSync(fixture("TestDeriveSecretsAndChallengeGolden.golden"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "");

test("golden HKDF file has 32 rows", () => assert.equal(goldenRows.length, 32));

for (const [i, row] of goldenRows.entries()) {
  test(`TestDeriveSecretsAndChallengeGolden row ${i + 1}`, () => {
    const [secret, locIsLeast, recv, send, oldChallenge] = row.split(",");
    const keys = deriveSessionKeys(bytes(secret), locIsLeast === "true");
    assert.equal(hex(keys.recvKey), recv);
    assert.equal(hex(keys.sendKey), send);
    assert.equal(hex(hkdfSecretConnection(bytes(secret)).subarray(64, 96)), oldChallenge);
  });
}

test("handshake vector: ephemeral keys, wire1, lo/hi, dh, keys, challenge", () => {
  for (const [side, other] of [
    [A, B],
    [B, A],
  ]) {
    const pair = makeEphemeralKeyPair(bytes(side.ephPriv));
    assert.equal(hex(pair.publicKey), side.ephPub);
    assert.equal(hex(delimit(encodeEphemeralKey(pair.publicKey))), side.wire1);
    const dh = sharedSecret(pair, bytes(other.ephPub));
    assert.equal(hex(dh), side.dh);
    const sorted = sortEphemeralKeys(pair.publicKey, bytes(other.ephPub));
    assert.equal(sorted.locIsLeast, side.locIsLeast);
    const keys = deriveSessionKeys(dh, sorted.locIsLeast);
    assert.equal(hex(keys.recvKey), side.recvKey);
    assert.equal(hex(keys.sendKey), side.sendKey);
    assert.equal(hex(hkdfSecretConnection(dh).subarray(0, 64)), side.hkdf64);
    assert.equal(hex(secretConnectionChallenge(sorted.lo, sorted.hi, dh)), side.challenge);
  }
});

test("handshake vector: identities, signatures, AuthSig encoding and sealed frame 0", () => {
  for (const side of [A, B]) {
    const identity = keyPairFromSeed(bytes(side.edSeed));
    assert.equal(hex(identity.publicKey), side.edPub);
    assert.equal(nodeIdFromPublicKey(identity.publicKey), side.nodeId);
    const sig = signEd25519(identity.privateKey, bytes(side.challenge));
    assert.equal(hex(sig), side.sig);
    const authSig = delimit(encodeAuthSig(identity.publicKey, sig));
    assert.equal(authSig.length, side.authSigDelimitedLen);
    assert.equal(hex(authSig), side.authSigDelimited);
    const frame = new FrameSealer(bytes(side.sendKey)).seal(authSig);
    assert.equal(frame.length, side.sealedFrame0Len);
    assert.equal(hex(frame.subarray(0, 48)), side.sealedFrame0_first48);
    assert.equal(hex(frame.subarray(1028)), side.sealedFrame0_tag);
    assert.equal(createHash("sha256").update(frame).digest("hex"), side.sealedFrame0_sha256);
    // The other side opens it with its receive key (the same key).
    assert.equal(hex(new FrameOpener(bytes(side.sendKey)).open(frame)), side.authSigDelimited);
  }
});

function socketPair(): Promise<{ a: Socket; b: Socket; close: () => void }> {
  return new Promise((resolve) => {
    const server = createServer((b) => resolve({ a, b, close: () => server.close() }));
    let a: Socket;
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as { port: number };
      a = connect(address.port, "127.0.0.1");
    });
  });
}

test("handshake vector over real loopback sockets: exact bytes on the wire", async () => {
  const { a, b, close } = await socketPair();
  const seenByB: Buffer[] = [];
  b.on("data", (chunk: Buffer) => seenByB.push(chunk));
  const keyA = keyPairFromSeed(bytes(A.edSeed)).privateKey;
  const keyB = keyPairFromSeed(bytes(B.edSeed)).privateKey;
  const [connA, connB] = await Promise.all([
    makeSecretConnection(a, keyA, 3000, { ephemeralPrivateKey: bytes(A.ephPriv) }),
    makeSecretConnection(b, keyB, 3000, { ephemeralPrivateKey: bytes(B.ephPriv) }),
  ]);
  assert.equal(connA.remoteId, B.nodeId);
  assert.equal(connB.remoteId, A.nodeId);
  assert.equal(hex(connA.challenge), A.challenge);
  const wire = Buffer.concat(seenByB);
  assert.equal(hex(wire.subarray(0, 35)), A.wire1);
  assert.equal(
    createHash("sha256")
      .update(wire.subarray(35, 35 + 1044))
      .digest("hex"),
    A.sealedFrame0_sha256,
  );
  // Then whole messages both ways.
  connA.writeMessage(new TextEncoder().encode("hello from A"));
  assert.equal(new TextDecoder().decode(await connB.readMessage(100)), "hello from A");
  const big = new Uint8Array(5000).map((_, i) => i & 0xff);
  connB.writeMessage(big);
  assert.deepEqual(await connA.readMessage(10_000), big);
  connA.close();
  connB.close();
  close();
});
