// The block family in JSON: block_id, header, commit and its signatures, votes, evidence, the
// block itself and block metas. Go's struct field order; the seed form's own shapes where
// rpc-forms.md lists them (a block's data, evidence and last_commit, block_size as a number,
// header.version.app always present).

import type { JsonForm } from "../../rpc/json/json-form.js";
import { pubKeyJson } from "../../rpc/json/json-keys.js";
import { base64, base64OrNull, hexUpper, int32, int64, rfc3339 } from "../../rpc/json/json-primitives.js";
import type { JsonValue } from "../../rpc/json/json-text.js";
import { validatorJson } from "../../rpc/json/json-validator.js";
import type { Block } from "../../wire/generated/tendermint/types/block.js";
import type {
  DuplicateVoteEvidence,
  Evidence,
  LightClientAttackEvidence,
} from "../../wire/generated/tendermint/types/evidence.js";
import type {
  BlockID,
  BlockMeta,
  Commit,
  CommitSig,
  Header,
  Vote,
} from "../../wire/generated/tendermint/types/types.js";
import type { Validator } from "../../wire/generated/tendermint/types/validator.js";

const BLOCK_ID_FLAG_COMMIT = 2;
const PRECOMMIT_TYPE = 2;

export function blockIdJson(id: BlockID | undefined): JsonValue {
  return {
    hash: hexUpper(id?.hash),
    parts: { total: int32(id?.partSetHeader?.total), hash: hexUpper(id?.partSetHeader?.hash) },
  };
}

export function headerJson(header: Header, form: JsonForm): JsonValue {
  const block = header.version?.block ?? 0n;
  const app = header.version?.app ?? 0n;
  // v0.34's version.Consensus has omitempty on both fields; the seed form always writes both.
  const version =
    form === "seed"
      ? { block: int64(block), app: int64(app) }
      : { block: block === 0n ? undefined : int64(block), app: app === 0n ? undefined : int64(app) };
  return {
    version,
    chain_id: header.chainId,
    height: int64(header.height),
    time: rfc3339(header.time),
    last_block_id: blockIdJson(header.lastBlockId),
    last_commit_hash: hexUpper(header.lastCommitHash),
    data_hash: hexUpper(header.dataHash),
    validators_hash: hexUpper(header.validatorsHash),
    next_validators_hash: hexUpper(header.nextValidatorsHash),
    consensus_hash: hexUpper(header.consensusHash),
    app_hash: hexUpper(header.appHash),
    last_results_hash: hexUpper(header.lastResultsHash),
    evidence_hash: hexUpper(header.evidenceHash),
    proposer_address: hexUpper(header.proposerAddress),
  };
}

export function commitSigJson(sig: CommitSig): JsonValue {
  return {
    block_id_flag: sig.blockIdFlag,
    validator_address: hexUpper(sig.validatorAddress),
    timestamp: rfc3339(sig.timestamp),
    signature: base64OrNull(sig.signature),
  };
}

/** The `commit` shape of both forms (the commit route, signed headers, light blocks). */
export function commitJson(commit: Commit | undefined): JsonValue {
  if (commit === undefined) return null;
  return {
    height: int64(commit.height),
    round: commit.round,
    block_id: blockIdJson(commit.blockId),
    signatures: commit.signatures.map(commitSigJson),
  };
}

/** The seed form's vote-shaped entry of a block's last_commit, with block_id_flag beside it. */
function seedLastCommitSig(commit: Commit, sig: CommitSig, index: number): JsonValue {
  const forBlock = sig.blockIdFlag === BLOCK_ID_FLAG_COMMIT;
  return {
    type: PRECOMMIT_TYPE,
    height: int64(commit.height),
    round: commit.round,
    block_id: blockIdJson(forBlock ? commit.blockId : undefined),
    timestamp: rfc3339(sig.timestamp),
    validator_address: hexUpper(sig.validatorAddress),
    validator_index: index,
    signature: base64OrNull(sig.signature),
    block_id_flag: sig.blockIdFlag,
  };
}

function lastCommitJson(commit: Commit | undefined, form: JsonForm): JsonValue {
  if (form === "tendermint") return commitJson(commit);
  const c = commit ?? { height: 0n, round: 0, blockId: undefined as unknown as BlockID, signatures: [] };
  return {
    height: Number(c.height),
    round: c.round,
    block_id: blockIdJson(c.blockId),
    signatures: c.signatures.map((sig, i) => seedLastCommitSig(c, sig, i)),
  };
}

export function voteJson(vote: Vote | undefined): JsonValue {
  if (vote === undefined) return null;
  return {
    type: vote.type,
    height: int64(vote.height),
    round: vote.round,
    block_id: blockIdJson(vote.blockId),
    timestamp: rfc3339(vote.timestamp),
    validator_address: hexUpper(vote.validatorAddress),
    validator_index: vote.validatorIndex,
    signature: base64OrNull(vote.signature),
  };
}

function validatorSetJson(validators: readonly Validator[], proposer: Validator | undefined, form: JsonForm) {
  return {
    validators: validators.map((v) => validatorJson(v, form)),
    proposer: proposer === undefined ? null : validatorJson(proposer, form),
  };
}

function duplicateVoteJson(e: DuplicateVoteEvidence): JsonValue {
  // Three fields of v0.34's DuplicateVoteEvidence have no JSON tags: Go's field names are the keys.
  return {
    vote_a: voteJson(e.voteA),
    vote_b: voteJson(e.voteB),
    TotalVotingPower: int64(e.totalVotingPower),
    ValidatorPower: int64(e.validatorPower),
    Timestamp: rfc3339(e.timestamp),
  };
}

function lightClientAttackJson(e: LightClientAttackEvidence, form: JsonForm): JsonValue {
  const light = e.conflictingBlock;
  const conflicting =
    light === undefined
      ? null
      : {
          signed_header:
            light.signedHeader === undefined
              ? null
              : {
                  header: light.signedHeader.header ? headerJson(light.signedHeader.header, form) : null,
                  commit: commitJson(light.signedHeader.commit),
                },
          validator_set:
            light.validatorSet === undefined
              ? null
              : validatorSetJson(light.validatorSet.validators, light.validatorSet.proposer, form),
        };
  return {
    conflicting_block: conflicting,
    common_height: int64(e.commonHeight),
    byzantine_validators: e.byzantineValidators.map((v) => validatorJson(v, form)),
    total_voting_power: int64(e.totalVotingPower),
    timestamp: rfc3339(e.timestamp),
  };
}

/** One evidence item as v0.34's typed envelope; the type string's prefix follows the form. */
export function evidenceJson(evidence: Evidence, form: JsonForm): JsonValue {
  const prefix = form === "tendermint" ? "tendermint" : "node";
  const sum = evidence.sum;
  if (sum?.$case === "duplicateVoteEvidence") {
    return { type: `${prefix}/DuplicateVoteEvidence`, value: duplicateVoteJson(sum.duplicateVoteEvidence) };
  }
  if (sum?.$case === "lightClientAttackEvidence") {
    return {
      type: `${prefix}/LightClientAttackEvidence`,
      value: lightClientAttackJson(sum.lightClientAttackEvidence, form),
    };
  }
  return null;
}

/** Public keys of validators named by evidence, by upper-case hex address (seed entries show them). */
export type ValidatorKeys = ReadonlyMap<string, Uint8Array>;

function unixSeconds(time: { seconds: bigint } | undefined): number {
  return time === undefined ? 0 : Number(time.seconds);
}

/**
 * The seed form's evidence entries: one per misbehaving validator, with `height`, `time` (Unix
 * seconds), `total_voting_power` and the validator's `voting_power` as JSON numbers.
 */
export function seedEvidenceEntries(evidence: Evidence, keys: ValidatorKeys | undefined): JsonValue[] {
  const sum = evidence.sum;
  const entry = (
    type: string,
    height: bigint,
    time: { seconds: bigint },
    total: bigint,
    v: {
      address: Uint8Array;
      power: bigint;
      pubKey: Uint8Array | undefined;
    },
  ) => ({
    type,
    height: Number(height),
    time: unixSeconds(time),
    total_voting_power: Number(total),
    validator: {
      pub_key: pubKeyJson(v.pubKey, "seed"),
      voting_power: Number(v.power),
      address: hexUpper(v.address),
    },
  });
  if (sum?.$case === "duplicateVoteEvidence") {
    const e = sum.duplicateVoteEvidence;
    const address = e.voteA?.validatorAddress ?? new Uint8Array(0);
    return [
      entry("node/DuplicateVoteEvidence", e.voteA?.height ?? 0n, e.timestamp, e.totalVotingPower, {
        address,
        power: e.validatorPower,
        pubKey: keys?.get(hexUpper(address)),
      }),
    ];
  }
  if (sum?.$case === "lightClientAttackEvidence") {
    const e = sum.lightClientAttackEvidence;
    return e.byzantineValidators.map((v) =>
      entry("node/LightClientAttackEvidence", e.commonHeight, e.timestamp, e.totalVotingPower, {
        address: v.address,
        power: v.votingPower,
        pubKey: v.pubKey?.sum?.$case === "ed25519" ? v.pubKey.sum.ed25519 : keys?.get(hexUpper(v.address)),
      }),
    );
  }
  return [];
}

export function blockJson(block: Block | undefined, form: JsonForm, keys?: ValidatorKeys): JsonValue {
  if (block === undefined) return null;
  const txs = block.data?.txs ?? [];
  const evidence = block.evidence?.evidence ?? [];
  if (form === "tendermint") {
    return {
      header: headerJson(block.header, form),
      data: { txs: txs.map(base64) },
      evidence: { evidence: evidence.map((e) => evidenceJson(e, form)) },
      last_commit: lastCommitJson(block.lastCommit, form),
    };
  }
  return {
    header: headerJson(block.header, form),
    data: txs.map(base64),
    evidence: evidence.flatMap((e) => seedEvidenceEntries(e, keys)),
    last_commit: lastCommitJson(block.lastCommit, form),
  };
}

export function blockMetaJson(meta: BlockMeta, form: JsonForm): JsonValue {
  return {
    block_id: blockIdJson(meta.blockId),
    // Go's int: a string in v0.34, a number in the seed form.
    block_size: form === "tendermint" ? int64(meta.blockSize) : Number(meta.blockSize),
    header: headerJson(meta.header, form),
    num_txs: int64(meta.numTxs),
  };
}
