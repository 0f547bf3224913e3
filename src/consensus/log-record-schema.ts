// The declared schema of the consensus log's records: for each input type, its fields and their
// kinds, down to every protobuf message an input carries. The log stores inputs with the record
// codec (src/wal/record-codec.ts), whose object keys are these field names: they are the on-disk
// format, declared here rather than taken implicitly from the generated protobuf interfaces. The
// `SameKeys` checks below fail to compile when a generated interface gains, loses or renames a
// field, so such a change cannot alter the format unnoticed (it needs a new log format version,
// src/wal/frame.ts LOG_FORMAT_VERSION, and a reader of the old one).
//
// A record read back is checked against this schema (consensusRecordProblem), never cast: an
// unknown type, a missing or unknown field, or a value of the wrong kind is refused with its path.
// Message-typed fields may be absent (undefined), as protobuf submessages may.
import type { Duration } from "../wire/generated/google/protobuf/duration.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { PublicKey } from "../wire/generated/tendermint/crypto/keys.js";
import type { Proof } from "../wire/generated/tendermint/crypto/proof.js";
import type { State, Version } from "../wire/generated/tendermint/state/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type {
  DuplicateVoteEvidence,
  Evidence,
  EvidenceList,
  LightClientAttackEvidence,
} from "../wire/generated/tendermint/types/evidence.js";
import type {
  BlockParams,
  ConsensusParams,
  EvidenceParams,
  ValidatorParams,
  VersionParams,
} from "../wire/generated/tendermint/types/params.js";
import type {
  BlockID,
  Commit,
  CommitSig,
  Data,
  Header,
  LightBlock,
  Part,
  PartSetHeader,
  Proposal,
  SignedHeader,
  Vote,
} from "../wire/generated/tendermint/types/types.js";
import type { Validator, ValidatorSet } from "../wire/generated/tendermint/types/validator.js";
import type { Consensus } from "../wire/generated/tendermint/version/types.js";
import type { ConsensusInput, ConsensusInputType } from "./input.js";

/** A declared kind: the problem with a value at a path, or undefined when the value fits. */
export interface Kind<T = unknown> {
  readonly name: string;
  check(value: unknown, path: string): string | undefined;
  /** Only for type-level checks of the declared fields against the generated interfaces. */
  readonly _type?: T;
}

const kind = <T>(name: string, fits: (v: unknown) => boolean): Kind<T> => ({
  name,
  check: (v, path) => (fits(v) ? undefined : `${path} should be ${name}, got ${describe(v)}`),
});

function describe(v: unknown): string {
  if (v === null) return "null";
  if (v instanceof Uint8Array) return "bytes";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return `the string ${JSON.stringify(v.slice(0, 40))}`;
  return typeof v === "object" ? "an object" : `${typeof v} ${String(v)}`;
}

const int32 = kind<number>("an integer", (v) => typeof v === "number" && Number.isInteger(v));
const int64 = kind<bigint>("a bigint", (v) => typeof v === "bigint");
const str = kind<string>("a string", (v) => typeof v === "string");
const bytes = kind<Uint8Array>("bytes", (v) => v instanceof Uint8Array);

function array<T>(item: Kind<T>): Kind<T[]> {
  return {
    name: `an array of ${item.name}`,
    check(v, path) {
      if (!Array.isArray(v)) return `${path} should be an array, got ${describe(v)}`;
      for (let i = 0; i < v.length; i++) {
        const problem = item.check(v[i], `${path}[${i}]`);
        if (problem) return problem;
      }
      return undefined;
    },
  };
}

/** A field that may be absent or undefined. */
function optional<T>(inner: Kind<T>): Kind<T | undefined> {
  return { name: inner.name, check: (v, path) => (v === undefined ? undefined : inner.check(v, path)) };
}

function oneOf<T extends string>(...values: readonly T[]): Kind<T> {
  return kind<T>(`one of ${values.join(", ")}`, (v) => typeof v === "string" && values.includes(v as T));
}

type Fields = Record<string, Kind<unknown>>;
type Shape<F extends Fields> = { [K in keyof F]: F[K] extends Kind<infer T> ? T : never };

/** An object with exactly the declared fields (an optional one may be missing). */
function object<F extends Fields>(name: string, fields: F): Kind<Shape<F>> & { fields: F } {
  const declared = Object.keys(fields);
  return {
    name,
    fields,
    check(v, path) {
      if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array)
        return `${path} should be ${name}, got ${describe(v)}`;
      for (const key of Object.keys(v))
        if (!(key in fields)) return `${path} has an undeclared field "${key}"`;
      for (const key of declared) {
        const problem = fields[key]!.check((v as Record<string, unknown>)[key], `${path}.${key}`);
        if (problem) return problem;
      }
      return undefined;
    },
  };
}

/** A protobuf message: its submessage fields may be absent, as protobuf allows. */
const message = object;
const sub = optional;

/** A protobuf oneof (`sum`): absent, or {$case, <case>: value} for one declared case. */
function sum<C extends Record<string, Kind<unknown>>>(cases: C): Kind<unknown> {
  return {
    name: `a oneof of ${Object.keys(cases).join(", ")}`,
    check(v, path) {
      if (v === undefined) return undefined;
      if (typeof v !== "object" || v === null) return `${path} should be a oneof, got ${describe(v)}`;
      const c = (v as { $case?: unknown }).$case;
      if (typeof c !== "string" || !(c in cases))
        return `${path}.$case should be one of ${Object.keys(cases).join(", ")}, got ${describe(c)}`;
      for (const key of Object.keys(v))
        if (key !== "$case" && key !== c) return `${path} has an undeclared field "${key}"`;
      return cases[c]!.check((v as Record<string, unknown>)[c], `${path}.${c}`);
    },
  };
}

// The generated interfaces' field names, compared with the declared ones at compile time.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : { declaredOnly: Exclude<keyof A, keyof B>; generatedOnly: Exclude<keyof B, keyof A> };
const same = <A, B>(ok: SameKeys<A, B>): SameKeys<A, B> => ok;

const timestamp = message("a Timestamp", { seconds: int64, nanos: int32 });
const duration = message("a Duration", { seconds: int64, nanos: int32 });
const partSetHeader = message("a PartSetHeader", { total: int32, hash: bytes });
const blockId = message("a BlockID", { hash: bytes, partSetHeader: sub(partSetHeader) });
const proof = message("a Proof", { total: int64, index: int64, leafHash: bytes, aunts: array(bytes) });
const part = message("a Part", { index: int32, bytes, proof: sub(proof) });
const vote = message("a Vote", {
  type: int32,
  height: int64,
  round: int32,
  blockId: sub(blockId),
  timestamp: sub(timestamp),
  validatorAddress: bytes,
  validatorIndex: int32,
  signature: bytes,
});
const proposal = message("a Proposal", {
  type: int32,
  height: int64,
  round: int32,
  polRound: int32,
  blockId: sub(blockId),
  timestamp: sub(timestamp),
  signature: bytes,
});
const commitSig = message("a CommitSig", {
  blockIdFlag: int32,
  validatorAddress: bytes,
  timestamp: sub(timestamp),
  signature: bytes,
});
const commit = message("a Commit", {
  height: int64,
  round: int32,
  blockId: sub(blockId),
  signatures: array(commitSig),
});
const consensusVersion = message("a version.Consensus", { block: int64, app: int64 });
const header = message("a Header", {
  version: sub(consensusVersion),
  chainId: str,
  height: int64,
  time: sub(timestamp),
  lastBlockId: sub(blockId),
  lastCommitHash: bytes,
  dataHash: bytes,
  validatorsHash: bytes,
  nextValidatorsHash: bytes,
  consensusHash: bytes,
  appHash: bytes,
  lastResultsHash: bytes,
  evidenceHash: bytes,
  proposerAddress: bytes,
});
const publicKey = message("a PublicKey", { sum: sum({ ed25519: bytes, secp256k1: bytes }) });
const validator = message("a Validator", {
  address: bytes,
  pubKey: sub(publicKey),
  votingPower: int64,
  proposerPriority: int64,
});
const validatorSet = message("a ValidatorSet", {
  validators: array(validator),
  proposer: sub(validator),
  totalVotingPower: int64,
});
const signedHeader = message("a SignedHeader", { header: sub(header), commit: sub(commit) });
const lightBlock = message("a LightBlock", {
  signedHeader: sub(signedHeader),
  validatorSet: sub(validatorSet),
});
const duplicateVoteEvidence = message("a DuplicateVoteEvidence", {
  voteA: sub(vote),
  voteB: sub(vote),
  totalVotingPower: int64,
  validatorPower: int64,
  timestamp: sub(timestamp),
});
const lightClientAttackEvidence = message("a LightClientAttackEvidence", {
  conflictingBlock: sub(lightBlock),
  commonHeight: int64,
  byzantineValidators: array(validator),
  totalVotingPower: int64,
  timestamp: sub(timestamp),
});
const evidence = message("an Evidence", {
  sum: sum({ duplicateVoteEvidence, lightClientAttackEvidence }),
});
const evidenceList = message("an EvidenceList", { evidence: array(evidence) });
const data = message("a Data", { txs: array(bytes) });
const block = message("a Block", {
  header: sub(header),
  data: sub(data),
  evidence: sub(evidenceList),
  lastCommit: sub(commit),
});
const blockParams = message("BlockParams", { maxBytes: int64, maxGas: int64, timeIotaMs: int64 });
const evidenceParams = message("EvidenceParams", {
  maxAgeNumBlocks: int64,
  maxAgeDuration: sub(duration),
  maxBytes: int64,
});
const validatorParams = message("ValidatorParams", { pubKeyTypes: array(str) });
const versionParams = message("VersionParams", { appVersion: int64 });
const consensusParams = message("ConsensusParams", {
  block: sub(blockParams),
  evidence: sub(evidenceParams),
  validator: sub(validatorParams),
  version: sub(versionParams),
});
const stateVersion = message("a state.Version", { consensus: sub(consensusVersion), software: str });
const chainState = message("a chain State", {
  version: sub(stateVersion),
  chainId: str,
  initialHeight: int64,
  lastBlockHeight: int64,
  lastBlockId: sub(blockId),
  lastBlockTime: sub(timestamp),
  nextValidators: sub(validatorSet),
  validators: sub(validatorSet),
  lastValidators: sub(validatorSet),
  lastHeightValidatorsChanged: int64,
  consensusParams: sub(consensusParams),
  lastHeightConsensusParamsChanged: int64,
  lastResultsHash: bytes,
  appHash: bytes,
});

type FieldsOf<K> = K extends { fields: infer F } ? F : never;
export const DECLARED_MESSAGES_MATCH_GENERATED = [
  same<FieldsOf<typeof timestamp>, Timestamp>(true),
  same<FieldsOf<typeof duration>, Duration>(true),
  same<FieldsOf<typeof partSetHeader>, PartSetHeader>(true),
  same<FieldsOf<typeof blockId>, BlockID>(true),
  same<FieldsOf<typeof proof>, Proof>(true),
  same<FieldsOf<typeof part>, Part>(true),
  same<FieldsOf<typeof vote>, Vote>(true),
  same<FieldsOf<typeof proposal>, Proposal>(true),
  same<FieldsOf<typeof commitSig>, CommitSig>(true),
  same<FieldsOf<typeof commit>, Commit>(true),
  same<FieldsOf<typeof consensusVersion>, Consensus>(true),
  same<FieldsOf<typeof header>, Header>(true),
  same<FieldsOf<typeof publicKey>, PublicKey>(true),
  same<FieldsOf<typeof validator>, Validator>(true),
  same<FieldsOf<typeof validatorSet>, ValidatorSet>(true),
  same<FieldsOf<typeof signedHeader>, SignedHeader>(true),
  same<FieldsOf<typeof lightBlock>, LightBlock>(true),
  same<FieldsOf<typeof duplicateVoteEvidence>, DuplicateVoteEvidence>(true),
  same<FieldsOf<typeof lightClientAttackEvidence>, LightClientAttackEvidence>(true),
  same<FieldsOf<typeof evidence>, Evidence>(true),
  same<FieldsOf<typeof evidenceList>, EvidenceList>(true),
  same<FieldsOf<typeof data>, Data>(true),
  same<FieldsOf<typeof block>, Block>(true),
  same<FieldsOf<typeof blockParams>, BlockParams>(true),
  same<FieldsOf<typeof evidenceParams>, EvidenceParams>(true),
  same<FieldsOf<typeof validatorParams>, ValidatorParams>(true),
  same<FieldsOf<typeof versionParams>, VersionParams>(true),
  same<FieldsOf<typeof consensusParams>, ConsensusParams>(true),
  same<FieldsOf<typeof stateVersion>, Version>(true),
  same<FieldsOf<typeof chainState>, State>(true),
];

/** Each input type's record: `type`, the `time` the log stamped, and its declared fields. */
const RECORDS = {
  ConsensusStarted: { chainState, lastCommit: optional(commit), lastBlockAppHash: bytes },
  ConsensusResumed: {},
  BlockExecuted: { height: int64, chainState },
  ProposalReceived: { proposal, from: str },
  BlockPartReceived: { height: int64, round: int32, part, from: str },
  VoteReceived: { vote, from: str },
  TimeoutElapsed: { height: int64, round: int32, step: int32 },
  TxsAvailable: { height: int64 },
  ProposalBlockReaped: { height: int64, round: int32, txs: array(bytes), evidence: array(evidence) },
  ProposalSigned: { proposal },
  VoteSigned: { vote },
  SignFailed: {
    height: int64,
    round: int32,
    what: oneOf("proposal", "prevote", "precommit"),
    reason: str,
  },
  BlockValidated: { height: int64, blockHash: bytes, error: optional(str) },
} satisfies Record<ConsensusInputType, Fields>;

// Every input type's declared fields are exactly its interface's (besides type and time).
type RecordFields<T extends ConsensusInputType> = (typeof RECORDS)[T];
type InputOf<T extends ConsensusInputType> = Omit<Extract<ConsensusInput, { type: T }>, "type" | "time">;
export const DECLARED_RECORDS_MATCH_INPUTS = [
  same<RecordFields<"ConsensusStarted">, InputOf<"ConsensusStarted">>(true),
  same<RecordFields<"ConsensusResumed">, InputOf<"ConsensusResumed">>(true),
  same<RecordFields<"BlockExecuted">, InputOf<"BlockExecuted">>(true),
  same<RecordFields<"ProposalReceived">, InputOf<"ProposalReceived">>(true),
  same<RecordFields<"BlockPartReceived">, InputOf<"BlockPartReceived">>(true),
  same<RecordFields<"VoteReceived">, InputOf<"VoteReceived">>(true),
  same<RecordFields<"TimeoutElapsed">, InputOf<"TimeoutElapsed">>(true),
  same<RecordFields<"TxsAvailable">, InputOf<"TxsAvailable">>(true),
  same<RecordFields<"ProposalBlockReaped">, InputOf<"ProposalBlockReaped">>(true),
  same<RecordFields<"ProposalSigned">, InputOf<"ProposalSigned">>(true),
  same<RecordFields<"VoteSigned">, InputOf<"VoteSigned">>(true),
  same<RecordFields<"SignFailed">, InputOf<"SignFailed">>(true),
  same<RecordFields<"BlockValidated">, InputOf<"BlockValidated">>(true),
];

const RECORD_KINDS: Record<string, Kind<unknown>> = Object.fromEntries(
  Object.entries(RECORDS).map(([type, fields]) => [
    type,
    object(`a ${type} record`, { type: str, time: timestamp, ...fields }),
  ]),
);

/**
 * Why `record` is not a consensus input this version declares (its path and expectation), or
 * undefined when it is one: then it is a ConsensusInput.
 */
export function consensusRecordProblem(record: unknown): string | undefined {
  if (typeof record !== "object" || record === null || Array.isArray(record))
    return `the record should be an object, got ${describe(record)}`;
  const type = (record as { type?: unknown }).type;
  if (typeof type !== "string") return `the record has no type string, got ${describe(type)}`;
  const declared = Object.hasOwn(RECORD_KINDS, type) ? RECORD_KINDS[type] : undefined;
  if (declared === undefined) return `unknown input type "${type.slice(0, 60)}"`;
  return declared.check(record, type);
}

/** The check a log reader applies to every record (src/wal RecordCheck<ConsensusInput>). */
export const consensusRecordCheck: ((record: unknown) => string | undefined) & {
  readonly accepts?: ConsensusInput;
} = consensusRecordProblem;
