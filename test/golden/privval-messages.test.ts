// The remote signer's messages against v0.34's privval vectors (privval/msgs_test.go,
// TestPrivvalVectors): each Message built by our helpers encodes to exactly the listed bytes, and
// the bytes decode back to the same message. Framing adds the unsigned-varint length prefix.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyPairFromSeed } from "../../src/crypto/ed25519-keys.js";
import { addressOf, sha256 } from "../../src/crypto/hash.js";
import { encodeFrame, FrameDecoder } from "../../src/privval/remote/framing.js";
import {
  pingRequest,
  pingResponse,
  pubKeyErrorResponse,
  pubKeyRequest,
  pubKeyResponse,
  signedProposalErrorResponse,
  signedProposalResponse,
  signedVoteErrorResponse,
  signedVoteResponse,
  signProposalRequest,
  signVoteRequest,
} from "../../src/privval/remote/messages.js";
import { timestampFromRfc3339 } from "../../src/types/time.js";
import { Message } from "../../src/wire/generated/tendermint/privval/types.js";
import type { Proposal, Vote } from "../../src/wire/generated/tendermint/types/types.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const utf8 = (s: string) => new TextEncoder().encode(s);
const stamp = timestampFromRfc3339("2019-10-13T16:14:44Z");
const blockId = {
  hash: sha256(utf8("blockID_hash")),
  partSetHeader: { total: 1000000, hash: sha256(utf8("blockID_part_set_header_hash")) },
};
const vote: Vote = {
  type: 1,
  height: 3n,
  round: 2,
  blockId,
  timestamp: stamp,
  validatorAddress: addressOf(utf8("validator_address")),
  validatorIndex: 56789,
  signature: new Uint8Array(0),
};
const proposal: Proposal = {
  type: 1,
  height: 3n,
  round: 2,
  polRound: 2,
  blockId,
  timestamp: stamp,
  signature: utf8("it's a signature"),
};
// ed25519.GenPrivKeyFromSecret: the seed is sha256 of the secret.
const publicKey = keyPairFromSeed(sha256(utf8("it's a secret"))).publicKey;
const remoteError = { code: 1, description: "it's a error" };

const vectors: [string, Message, string][] = [
  ["ping request", pingRequest(), "3a00"],
  ["ping response", pingResponse(), "4200"],
  ["pubKey request", pubKeyRequest(""), "0a00"],
  [
    "pubKey response",
    pubKeyResponse(publicKey),
    "12240a220a20556a436f1218d30942efe798420f51dc9b6a311b929c578257457d05c5fcf230",
  ],
  [
    "pubKey response with error",
    pubKeyErrorResponse(remoteError),
    "12140a0012100801120c697427732061206572726f72",
  ],
  [
    "Vote Request",
    signVoteRequest("", vote),
    "1a760a74080110031802224a0a208b01023386c371778ecb6368573e539afc3cc860ec3a2f614e54fe5652f4fc80122608c0843d122072db3d959635dff1bb567bedaa70573392c5159666a3f8caf11e413aac52207a2a0608f49a8ded0532146af1f4111082efb388211bc72c55bcd61e9ac3d538d5bb03",
  ],
  [
    "Vote Response",
    signedVoteResponse(vote),
    "22760a74080110031802224a0a208b01023386c371778ecb6368573e539afc3cc860ec3a2f614e54fe5652f4fc80122608c0843d122072db3d959635dff1bb567bedaa70573392c5159666a3f8caf11e413aac52207a2a0608f49a8ded0532146af1f4111082efb388211bc72c55bcd61e9ac3d538d5bb03",
  ],
  [
    "Vote Response with error",
    signedVoteErrorResponse(remoteError),
    "22250a11220212002a0b088092b8c398feffffff0112100801120c697427732061206572726f72",
  ],
  [
    "Proposal Request",
    signProposalRequest("", proposal),
    "2a700a6e08011003180220022a4a0a208b01023386c371778ecb6368573e539afc3cc860ec3a2f614e54fe5652f4fc80122608c0843d122072db3d959635dff1bb567bedaa70573392c5159666a3f8caf11e413aac52207a320608f49a8ded053a10697427732061207369676e6174757265",
  ],
  [
    "Proposal Response",
    signedProposalResponse(proposal),
    "32700a6e08011003180220022a4a0a208b01023386c371778ecb6368573e539afc3cc860ec3a2f614e54fe5652f4fc80122608c0843d122072db3d959635dff1bb567bedaa70573392c5159666a3f8caf11e413aac52207a320608f49a8ded053a10697427732061207369676e6174757265",
  ],
  [
    "Proposal Response with error",
    signedProposalErrorResponse(remoteError),
    "32250a112a021200320b088092b8c398feffffff0112100801120c697427732061206572726f72",
  ],
];

/** Decoded bytes may be Buffers; compare contents, not classes. */
function normalise(value: unknown): unknown {
  if (value instanceof Uint8Array) return hex(value);
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, normalise(v)]),
    );
  return value;
}

describe("privval messages: v0.34 vectors", () => {
  for (const [name, message, expected] of vectors) {
    it(name, () => {
      assert.equal(hex(Message.encode(message).finish()), expected);
      const decoded = Message.decode(Buffer.from(expected, "hex"));
      assert.equal(hex(Message.encode(decoded).finish()), expected);
      assert.deepEqual(normalise(decoded), normalise(message));
    });
  }

  it("the pubkey of the vector's secret is the one in its bytes", () => {
    assert.equal(hex(publicKey), "556a436f1218d30942efe798420f51dc9b6a311b929c578257457d05c5fcf230");
  });

  it("a chain ID is field 1 of PubKeyRequest and field 2 of the sign requests", () => {
    assert.equal(hex(Message.encode(pubKeyRequest("c")).finish()), "0a030a0163");
    assert.ok(hex(Message.encode(signVoteRequest("c", vote)).finish()).endsWith("120163"));
    assert.ok(hex(Message.encode(signProposalRequest("c", proposal)).finish()).endsWith("120163"));
  });
});

describe("privval framing", () => {
  it("prefixes each message with its length as an unsigned varint", () => {
    assert.equal(hex(encodeFrame(pingRequest())), "023a00");
    const big = encodeFrame(signVoteRequest("", vote));
    assert.equal(hex(big.subarray(0, 2)), "781a"); // 120 bytes, then the message
    assert.equal(big.length, 121);
  });

  it("decodes frames split at every byte and several frames in one chunk", () => {
    const bytes = Buffer.concat([encodeFrame(pingRequest()), encodeFrame(signVoteRequest("x", vote))]);
    const decoder = new FrameDecoder("test");
    const got: Message[] = [];
    for (const byte of bytes) got.push(...decoder.push(Uint8Array.of(byte)));
    assert.deepEqual(
      got.map((m) => m.sum?.$case),
      ["pingRequest", "signVoteRequest"],
    );
    assert.deepEqual(
      new FrameDecoder("test").push(bytes).map((m) => m.sum?.$case),
      ["pingRequest", "signVoteRequest"],
    );
  });

  it("refuses a frame longer than 10 KiB, naming where it came from", () => {
    const decoder = new FrameDecoder("the node at unix:///tmp/x.sock");
    assert.throws(
      () => decoder.push(Uint8Array.from([0x81, 0x50])),
      (e: Error & { code?: string }) =>
        e.code === "PRIVVAL_REMOTE_BAD_FRAME" &&
        /10241 bytes long, over the limit of 10240/.test(e.message) &&
        /unix:\/\/\/tmp\/x\.sock/.test(e.message),
    );
  });

  it("refuses a frame that does not decode", () => {
    assert.throws(
      () => new FrameDecoder("s").push(Uint8Array.from([0x02, 0x0a, 0x05])),
      /does not decode as tendermint.privval.Message/,
    );
  });
});
