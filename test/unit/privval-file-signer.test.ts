import assert from "node:assert/strict";
import { createPublicKey, verify } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { keyPairFromSeed } from "../../src/crypto/ed25519-keys.js";
import { sha256 } from "../../src/crypto/hash.js";
import { PrivvalError } from "../../src/privval/errors.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import { memorySignStateStore } from "../../src/privval/sign-state-store.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  writePrivValidatorState,
} from "../../src/types/key-file-priv-validator-state.js";
import { type Proposal, SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { proposalSignBytes, voteSignBytes } from "../../src/wire/sign-bytes.js";
import { tempFolder } from "../fixtures/temp-folder.js";

const CHAIN = "test_chain_id";
const pair = keyPairFromSeed(new Uint8Array(32).fill(9));
const ascii = (s: string) => new TextEncoder().encode(s);
const isCode = (code: string, re?: RegExp) => (e: unknown) =>
  e instanceof PrivvalError && e.code === code && (re === undefined || re.test(e.message));

const blockA = {
  hash: sha256(ascii("blockID_hash")),
  partSetHeader: { total: 1000000, hash: sha256(ascii("blockID_part_set_header_hash")) },
};
const blockB = {
  hash: sha256(ascii("other")),
  partSetHeader: { total: 1, hash: sha256(ascii("other parts")) },
};
const nilBlock = { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };

function vote(fields: Partial<Vote> = {}): Vote {
  return {
    type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
    height: 12345n,
    round: 2,
    blockId: blockA,
    timestamp: { seconds: 1514170801n, nanos: 234000000 }, // 2017-12-25T03:00:01.234Z
    validatorAddress: sha256(ascii("validator_address")).subarray(0, 20),
    validatorIndex: 56789,
    signature: new Uint8Array(0),
    ...fields,
  };
}

function proposal(fields: Partial<Proposal> = {}): Proposal {
  return {
    type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
    height: 12345n,
    round: 23456,
    polRound: -1,
    blockId: blockA,
    timestamp: { seconds: 1518332962n, nanos: 765000000 },
    signature: new Uint8Array(0),
    ...fields,
  };
}

function verifies(message: Uint8Array, signature: Uint8Array): boolean {
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), pair.publicKey]);
  return verify(null, message, createPublicKey({ key: spki, format: "der", type: "spki" }), signature);
}

function freshStateFile(): string {
  const path = join(tempFolder("rxbft-privval-"), "priv_validator_state.json");
  writePrivValidatorState(path, INITIAL_PRIV_VALIDATOR_STATE);
  return path;
}

const memorySigner = () => {
  const store = memorySignStateStore();
  return { store, signer: new FileSigner(pair.privateKey, store, store.state) };
};

test("a signed vote verifies, and the state file holds height, round, step, signature and sign bytes", async () => {
  const path = freshStateFile();
  const signer = FileSigner.fromStateFile(pair.privateKey, path);
  const signed = await signer.signVote(CHAIN, vote());
  assert.equal(signed.signature.length, 64);
  assert.ok(verifies(voteSignBytes(CHAIN, vote()), signed.signature));

  // The state is on disk by the time the signature is returned.
  const file = JSON.parse(readFileSync(path, "utf8"));
  assert.deepEqual(Object.keys(file), ["height", "round", "step", "signature", "signbytes"]);
  assert.equal(file.height, "12345");
  assert.equal(file.round, 2);
  assert.equal(file.step, 3);
  assert.equal(file.signature, Buffer.from(signed.signature).toString("base64"));
  // The reference's sign bytes of CometBFT's example vote (reference §10.1), in upper-case hex.
  assert.equal(
    file.signbytes,
    "7c0802113930000000000000190200000000000000224a0a208b01023386c371778ecb6368573e539afc3cc860ec3a2f614e54fe5652f4fc80122608c0843d122072db3d959635dff1bb567bedaa70573392c5159666a3f8caf11e413aac52207a2a0b08b1d381d20510809dca6f320d746573745f636861696e5f6964".toUpperCase(),
  );
  assert.match(readFileSync(path, "utf8"), /^\{\n {2}"height": "12345",\n/);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.deepEqual(signer.lastSignState.signature, signed.signature);
});

test("re-signing the same vote returns the same signature without writing again", async () => {
  const { store, signer } = memorySigner();
  const first = await signer.signVote(CHAIN, vote());
  const second = await signer.signVote(CHAIN, vote());
  assert.deepEqual(second.signature, first.signature);
  assert.equal(store.saved.length, 1);
});

test("the same vote with another timestamp gets the stored signature and the stored timestamp", async () => {
  const { store, signer } = memorySigner();
  const first = await signer.signVote(CHAIN, vote());
  const later = vote({ timestamp: { seconds: 1514170999n, nanos: 5 } });
  const again = await signer.signVote(CHAIN, later);
  assert.deepEqual(again.signature, first.signature);
  assert.deepEqual(again.timestamp, vote().timestamp);
  assert.ok(verifies(voteSignBytes(CHAIN, again), again.signature), "the returned vote verifies as is");
  assert.equal(store.saved.length, 1);
});

test("a conflicting vote at the same height/round/step is refused and the state is unchanged", async () => {
  const { store, signer } = memorySigner();
  await signer.signVote(CHAIN, vote());
  for (const conflicting of [
    vote({ blockId: blockB }),
    vote({ blockId: nilBlock }),
    vote({ blockId: blockB, timestamp: { seconds: 1n, nanos: 0 } }),
  ]) {
    await assert.rejects(
      signer.signVote(CHAIN, conflicting),
      isCode("PRIVVAL_CONFLICTING_DATA", /12345\/2\/precommit/),
    );
  }
  await assert.rejects(signer.signVote("other-chain", vote()), isCode("PRIVVAL_CONFLICTING_DATA"));
  assert.equal(store.saved.length, 1);
  assert.deepEqual(signer.lastSignState.signBytes, voteSignBytes(CHAIN, vote()));
});

test("lower heights, rounds and steps are refused; higher ones are signed", async () => {
  const { signer } = memorySigner();
  await signer.signVote(CHAIN, vote({ type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE }));
  await signer.signVote(CHAIN, vote()); // precommit after prevote in the same round
  await assert.rejects(
    signer.signVote(CHAIN, vote({ type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE })),
    isCode("PRIVVAL_HRS_REGRESSION", /step regression/),
  );
  await assert.rejects(
    signer.signVote(CHAIN, vote({ round: 1 })),
    isCode("PRIVVAL_HRS_REGRESSION", /round regression/),
  );
  await assert.rejects(
    signer.signVote(CHAIN, vote({ height: 12344n })),
    isCode("PRIVVAL_HRS_REGRESSION", /height regression/),
  );
  await assert.rejects(
    signer.signProposal(CHAIN, proposal({ round: 2 })),
    isCode("PRIVVAL_HRS_REGRESSION", /step regression/),
  );
  const p = await signer.signProposal(CHAIN, proposal({ round: 3 }));
  assert.ok(verifies(proposalSignBytes(CHAIN, proposal({ round: 3 })), p.signature));
  assert.equal(signer.lastSignState.step, 1);
});

test("a proposal re-signed with another timestamp gets the stored signature and timestamp; another block is refused", async () => {
  const { signer } = memorySigner();
  const first = await signer.signProposal(CHAIN, proposal());
  const again = await signer.signProposal(CHAIN, proposal({ timestamp: { seconds: 1518332999n, nanos: 0 } }));
  assert.deepEqual(again.signature, first.signature);
  assert.deepEqual(again.timestamp, proposal().timestamp);
  await assert.rejects(
    signer.signProposal(CHAIN, proposal({ blockId: blockB })),
    isCode("PRIVVAL_CONFLICTING_DATA"),
  );
  await assert.rejects(
    signer.signProposal(CHAIN, proposal({ polRound: 5 })),
    isCode("PRIVVAL_CONFLICTING_DATA"),
  );
});

test("after a restart from the state file the signer still refuses what conflicts and repeats what matches", async () => {
  const path = freshStateFile();
  const first = await FileSigner.fromStateFile(pair.privateKey, path).signVote(CHAIN, vote());
  const restarted = FileSigner.fromStateFile(pair.privateKey, path);
  assert.deepEqual((await restarted.signVote(CHAIN, vote())).signature, first.signature);
  await assert.rejects(
    restarted.signVote(CHAIN, vote({ blockId: blockB })),
    isCode("PRIVVAL_CONFLICTING_DATA"),
  );
  await assert.rejects(restarted.signVote(CHAIN, vote({ height: 1n })), isCode("PRIVVAL_HRS_REGRESSION"));
});

test("two conflicting requests at once: exactly one is signed", async () => {
  const { signer } = memorySigner();
  const results = await Promise.allSettled([
    signer.signVote(CHAIN, vote()),
    signer.signVote(CHAIN, vote({ blockId: blockB })),
  ]);
  assert.deepEqual(
    results.map((r) => r.status),
    ["fulfilled", "rejected"],
  );
});

test("when the state cannot be saved no signature leaves, and the signer stops signing", async () => {
  let saves = 0;
  const failing = {
    save() {
      saves++;
      throw new Error("EIO: disk on fire");
    },
  };
  const signer = new FileSigner(pair.privateKey, failing, INITIAL_PRIV_VALIDATOR_STATE);
  await assert.rejects(signer.signVote(CHAIN, vote()), isCode("PRIVVAL_STATE_WRITE_FAILED", /disk on fire/));
  assert.equal(signer.lastSignState.height, 0n);
  await assert.rejects(
    signer.signVote(CHAIN, vote({ height: 99999n })),
    isCode("PRIVVAL_STATE_WRITE_FAILED"),
  );
  assert.equal(saves, 1);
});

test("the signature is released only after the save has completed", async () => {
  const events: string[] = [];
  const slow = {
    async save() {
      events.push("save started");
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push("save done");
    },
  };
  const signer = new FileSigner(pair.privateKey, slow, INITIAL_PRIV_VALIDATOR_STATE);
  await signer.signVote(CHAIN, vote());
  events.push("signature returned");
  assert.deepEqual(events, ["save started", "save done", "signature returned"]);
});

test("bad keys and bad requests are refused", async () => {
  assert.throws(
    () => new FileSigner(new Uint8Array(63), memorySignStateStore(), INITIAL_PRIV_VALIDATOR_STATE),
    isCode("PRIVVAL_BAD_KEY"),
  );
  const wrongHalf = new Uint8Array(pair.privateKey);
  wrongHalf[40]! ^= 1;
  assert.throws(
    () => new FileSigner(wrongHalf, memorySignStateStore(), INITIAL_PRIV_VALIDATOR_STATE),
    isCode("PRIVVAL_BAD_KEY"),
  );
  const { signer } = memorySigner();
  await assert.rejects(
    signer.signVote(CHAIN, vote({ type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL })),
    isCode("PRIVVAL_BAD_REQUEST"),
  );
  await assert.rejects(signer.signVote(CHAIN, vote({ round: -1 })), isCode("PRIVVAL_BAD_REQUEST"));
  await assert.rejects(signer.signProposal(CHAIN, proposal({ polRound: -2 })), isCode("PRIVVAL_BAD_REQUEST"));
});
