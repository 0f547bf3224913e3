// fast-check arbitraries for the wire data model, shared by the codec property tests. Every
// generated value uses each field's full protobuf range, so round trips exercise varint widths,
// negative int64s, empty and non-empty bytes, and absent optional messages.
import fc from "fast-check";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { PublicKey } from "../../src/wire/generated/tendermint/crypto/keys.js";
import type { Proof } from "../../src/wire/generated/tendermint/crypto/proof.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type {
  DuplicateVoteEvidence,
  Evidence,
  LightClientAttackEvidence,
} from "../../src/wire/generated/tendermint/types/evidence.js";
import type { ConsensusParams } from "../../src/wire/generated/tendermint/types/params.js";
import type {
  BlockID,
  Commit,
  CommitSig,
  Header,
  Part,
  PartSetHeader,
  Proposal,
  Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import type { Validator, ValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";

export const int64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
export const uint64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
export const int32 = fc.integer({ min: -0x80000000, max: 0x7fffffff });
export const uint32 = fc.integer({ min: 0, max: 0xffffffff });
export const bytes = (maxLength = 40) => fc.uint8Array({ maxLength });
export const fixed = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
export const hash = fc.oneof(fc.constant(new Uint8Array(0)), fixed(32));
export const text = fc.string({ maxLength: 30, unit: "grapheme" });
export const smallList = <T>(arb: fc.Arbitrary<T>, maxLength = 3) => fc.array(arb, { maxLength });

export const timestamp: fc.Arbitrary<Timestamp> = fc.record({
  seconds: fc.bigInt({ min: -62135596800n, max: 253402300799n }),
  nanos: fc.integer({ min: 0, max: 999_999_999 }),
});

export const partSetHeader: fc.Arbitrary<PartSetHeader> = fc.record({ total: uint32, hash });
export const blockId: fc.Arbitrary<BlockID> = fc.record({ hash, partSetHeader });
export const proof: fc.Arbitrary<Proof> = fc.record({
  total: int64,
  index: int64,
  leafHash: hash,
  aunts: smallList(fixed(32)),
});
export const part: fc.Arbitrary<Part> = fc.record({ index: uint32, bytes: bytes(200), proof });
export const signedMsgType = fc.constantFrom(0, 1, 2, 32);

export const vote: fc.Arbitrary<Vote> = fc.record({
  type: signedMsgType,
  height: int64,
  round: int32,
  blockId,
  timestamp,
  validatorAddress: fc.oneof(fc.constant(new Uint8Array(0)), fixed(20)),
  validatorIndex: int32,
  signature: bytes(64),
});

export const proposal: fc.Arbitrary<Proposal> = fc.record({
  type: signedMsgType,
  height: int64,
  round: int32,
  polRound: int32,
  blockId,
  timestamp,
  signature: bytes(64),
});

export const header: fc.Arbitrary<Header> = fc.record({
  version: fc.record({ block: uint64, app: uint64 }),
  chainId: text,
  height: int64,
  time: timestamp,
  lastBlockId: blockId,
  lastCommitHash: hash,
  dataHash: hash,
  validatorsHash: hash,
  nextValidatorsHash: hash,
  consensusHash: hash,
  appHash: bytes(),
  lastResultsHash: hash,
  evidenceHash: hash,
  proposerAddress: fc.oneof(fc.constant(new Uint8Array(0)), fixed(20)),
});

export const commitSig: fc.Arbitrary<CommitSig> = fc.record({
  blockIdFlag: fc.constantFrom(0, 1, 2, 3),
  validatorAddress: fc.oneof(fc.constant(new Uint8Array(0)), fixed(20)),
  timestamp,
  signature: bytes(64),
});

export const commit: fc.Arbitrary<Commit> = fc.record({
  height: int64,
  round: int32,
  blockId,
  signatures: smallList(commitSig, 4),
});

export const publicKey: fc.Arbitrary<PublicKey> = fc.oneof(
  fc.record({ sum: fc.record({ $case: fc.constant("ed25519" as const), ed25519: fixed(32) }) }),
  fc.record({ sum: fc.record({ $case: fc.constant("secp256k1" as const), secp256k1: fixed(33) }) }),
  fc.record({ sum: fc.constant(undefined) }),
);

export const validator: fc.Arbitrary<Validator> = fc.record({
  address: fixed(20),
  pubKey: publicKey,
  votingPower: int64,
  proposerPriority: int64,
});

export const validatorSet: fc.Arbitrary<ValidatorSet> = fc.record({
  validators: smallList(validator),
  proposer: fc.option(validator, { nil: undefined }),
  totalVotingPower: int64,
});

export const duplicateVoteEvidence: fc.Arbitrary<DuplicateVoteEvidence> = fc.record({
  voteA: fc.option(vote, { nil: undefined }),
  voteB: fc.option(vote, { nil: undefined }),
  totalVotingPower: int64,
  validatorPower: int64,
  timestamp,
});

export const lightClientAttackEvidence: fc.Arbitrary<LightClientAttackEvidence> = fc.record({
  conflictingBlock: fc.option(
    fc.record({
      signedHeader: fc.option(
        fc.record({
          header: fc.option(header, { nil: undefined }),
          commit: fc.option(commit, { nil: undefined }),
        }),
        { nil: undefined },
      ),
      validatorSet: fc.option(validatorSet, { nil: undefined }),
    }),
    { nil: undefined },
  ),
  commonHeight: int64,
  byzantineValidators: smallList(validator, 2),
  totalVotingPower: int64,
  timestamp,
});

export const evidence: fc.Arbitrary<Evidence> = fc.oneof(
  fc.record({
    sum: fc.record({ $case: fc.constant("duplicateVoteEvidence" as const), duplicateVoteEvidence }),
  }),
  fc.record({
    sum: fc.record({ $case: fc.constant("lightClientAttackEvidence" as const), lightClientAttackEvidence }),
  }),
);

export const block: fc.Arbitrary<Block> = fc.record({
  header,
  data: fc.record({ txs: smallList(bytes(100), 5) }),
  evidence: fc.record({ evidence: smallList(evidence, 2) }),
  lastCommit: fc.option(commit, { nil: undefined }),
});

export const consensusParams: fc.Arbitrary<ConsensusParams> = fc.record({
  block: fc.record({ maxBytes: int64, maxGas: int64, timeIotaMs: int64 }),
  evidence: fc.record({
    maxAgeNumBlocks: int64,
    maxAgeDuration: fc.record({ seconds: int64, nanos: int32 }),
    maxBytes: int64,
  }),
  validator: fc.record({ pubKeyTypes: smallList(text) }),
  version: fc.record({ appVersion: uint64 }),
});

/** Byte fields compared by content (decoded ones are Buffers viewing the input); undefined keys dropped. */
export function normalise(value: unknown): unknown {
  if (value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString("hex")}`;
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, normalise(v)]),
    );
  return value;
}

export interface Codec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
}
