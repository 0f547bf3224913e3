// Header, commit and consensus-params hashes are remembered per object (src/wire/hashes.ts), and
// a chain state's validator sets per protobuf object (ValidatorSet.fromProto): the same object is
// answered from the memo with what computing it gives, another object is computed for itself, and
// a set that fails the checks is refused every time.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { merkleRoot } from "../../src/crypto/merkle.js";
import { defaultConsensusParams } from "../../src/types/consensus-params.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import type { PublicKey as PublicKeyProto } from "../../src/wire/generated/tendermint/crypto/keys.js";
import {
  BlockIDFlag,
  type Commit,
  CommitSig,
  type Header,
} from "../../src/wire/generated/tendermint/types/types.js";
import type { ValidatorSet as ProtoValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";
import { SimpleValidator } from "../../src/wire/generated/tendermint/types/validator.js";
import {
  commitHash,
  consensusParamsHash,
  headerHash,
  headerHashLeaves,
  validatorSetHash,
} from "../../src/wire/hashes.js";

const fill = (n: number, b: number) => new Uint8Array(n).fill(b);
const header = (height: bigint): Header => ({
  version: { block: 11n, app: 0n },
  chainId: "memo",
  height,
  time: { seconds: 1_700_000_000n, nanos: 0 },
  lastBlockId: { hash: fill(32, 1), partSetHeader: { total: 1, hash: fill(32, 2) } },
  lastCommitHash: fill(32, 3),
  dataHash: fill(32, 4),
  validatorsHash: fill(32, 5),
  nextValidatorsHash: fill(32, 5),
  consensusHash: fill(32, 6),
  appHash: fill(32, 7),
  lastResultsHash: fill(32, 8),
  evidenceHash: fill(32, 9),
  proposerAddress: fill(20, 10),
});
const commit = (round: number): Commit => ({
  height: 4n,
  round,
  blockId: { hash: fill(32, 1), partSetHeader: { total: 1, hash: fill(32, 2) } },
  signatures: [
    {
      blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
      validatorAddress: fill(20, 3),
      timestamp: { seconds: 1n, nanos: round },
      signature: fill(64, 4),
    },
  ],
});
const validators = (power: bigint): ProtoValidatorSet => ({
  validators: [
    {
      address: fill(20, 1),
      pubKey: { sum: { $case: "ed25519", ed25519: fill(32, 2) } },
      votingPower: power,
      proposerPriority: 0n,
    },
  ],
  proposer: undefined,
  totalVotingPower: 0n,
});

describe("hashes remembered per object", () => {
  it("answers the same header from the memo with its merkle root; another header for itself", () => {
    const h = header(3n);
    const first = headerHash(h);
    assert.deepEqual(first, merkleRoot(headerHashLeaves(h)));
    assert.equal(headerHash(h), first, "the remembered bytes, not a new hash");
    const other = header(4n);
    assert.deepEqual(headerHash(other), merkleRoot(headerHashLeaves(other)));
    assert.notDeepEqual(headerHash(other), first);
    assert.deepEqual(headerHash({ ...h }), first, "an equal copy hashes equal");
  });

  it("keeps an incomplete header's empty hash", () => {
    const h = { ...header(3n), validatorsHash: new Uint8Array(0) };
    assert.equal(headerHash(h).length, 0);
    assert.equal(headerHash(h).length, 0);
  });

  it("answers the same commit from the memo; another commit for itself; none is empty", () => {
    const c = commit(0);
    const first = commitHash(c);
    assert.deepEqual(first, merkleRoot(c.signatures.map((s) => CommitSig.encode(s).finish())));
    assert.equal(commitHash(c), first);
    assert.notDeepEqual(commitHash(commit(1)), first);
    assert.equal(commitHash(undefined).length, 0);
  });

  it("answers the same consensus params from the memo; other params for themselves", () => {
    const params = defaultConsensusParams();
    const first = consensusParamsHash(params);
    assert.equal(consensusParamsHash(params), first);
    const other = { ...params, block: { ...params.block, maxBytes: params.block.maxBytes + 1n } };
    assert.notDeepEqual(consensusParamsHash(other), first);
    assert.deepEqual(consensusParamsHash({ ...params }), first);
  });

  it("converts a protobuf validator set once, and another set for itself", () => {
    const proto = validators(10n);
    const set = ValidatorSet.fromProto(proto);
    assert.equal(ValidatorSet.fromProto(proto), set, "the remembered set");
    const other = ValidatorSet.fromProto(validators(20n));
    assert.equal(other.totalVotingPower, 20n);
    assert.notDeepEqual(other.hash(), set.hash());
  });

  it("refuses a malformed protobuf set every time (a refusal is not remembered)", () => {
    const bad = {
      ...validators(10n),
      validators: [{ ...validators(10n).validators[0]!, address: fill(19, 1) }],
    };
    assert.throws(() => ValidatorSet.fromProto(bad), /address must be 20 bytes/);
    assert.throws(() => ValidatorSet.fromProto(bad), /address must be 20 bytes/);
  });

  // The reference: the merkle root over each member's SimpleValidator encoding, nothing remembered.
  const setRoot = (members: readonly { pubKey: PublicKeyProto; votingPower: bigint }[]) =>
    merkleRoot(
      members.map((v) => SimpleValidator.encode({ pubKey: v.pubKey, votingPower: v.votingPower }).finish()),
    );
  const member = (b: number, power: bigint) => ({
    pubKey: { sum: { $case: "ed25519" as const, ed25519: fill(32, b) } } as PublicKeyProto,
    votingPower: power,
  });

  it("hashes a validator set as the root over its members' encodings, the same key objects again too", () => {
    for (const n of [0, 1, 2, 3, 4, 7]) {
      const members = Array.from({ length: n }, (_, i) => member(i + 1, BigInt(10 + i)));
      assert.deepEqual(validatorSetHash(members), setRoot(members), `${n} members`);
      // The next height's set: new member objects with the same key objects (priorities moved).
      const next = members.map((m) => ({ ...m, proposerPriority: 5n }));
      assert.deepEqual(validatorSetHash(next), setRoot(next), `${n} members again`);
    }
  });

  it("follows a member's new power and a key changed in place", () => {
    const members = [member(1, 10n), member(2, 20n), member(3, 30n)];
    const before = validatorSetHash(members);
    const stronger = [members[0]!, { ...members[1]!, votingPower: 21n }, members[2]!];
    assert.deepEqual(validatorSetHash(stronger), setRoot(stronger));
    assert.notDeepEqual(validatorSetHash(stronger), before);
    const key = members[2]!.pubKey.sum as { ed25519: Uint8Array };
    key.ed25519[0] = 0xee;
    assert.deepEqual(validatorSetHash(members), setRoot(members));
    assert.notDeepEqual(validatorSetHash(members), before);
    for (const single of [[member(9, 1n)], members.slice(0, 1)]) {
      assert.deepEqual(validatorSetHash(single), setRoot(single));
    }
  });

  it("gives the caller a root of its own: writing into it changes no later answer", () => {
    for (const members of [[member(4, 1n)], [member(5, 1n), member(6, 2n)]]) {
      const root = validatorSetHash(members);
      const copy = root.slice();
      root.fill(0);
      assert.deepEqual(validatorSetHash(members), copy);
    }
  });
});
