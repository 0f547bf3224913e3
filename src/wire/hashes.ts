// Hashes that must match Tendermint v0.34 byte for byte (reference §7.5–7.6): the header hash
// (which is the block hash), and the data, commit, validator-set, consensus-params, results and
// evidence hashes a header carries.
import { createHash } from "node:crypto";
import { merkleRoot } from "../crypto/merkle.js";
import { WireError } from "./errors.js";
import { Timestamp } from "./generated/google/protobuf/timestamp.js";
import { ResponseDeliverTx } from "./generated/tendermint/abci/types.js";
import type { PublicKey } from "./generated/tendermint/crypto/keys.js";
import {
  DuplicateVoteEvidence,
  type Evidence,
  LightClientAttackEvidence,
} from "./generated/tendermint/types/evidence.js";
import type { ConsensusParams } from "./generated/tendermint/types/params.js";
import { HashedParams } from "./generated/tendermint/types/params.js";
import { BlockID, type Commit, CommitSig, type Header } from "./generated/tendermint/types/types.js";
import { SimpleValidator } from "./generated/tendermint/types/validator.js";
import { Consensus } from "./generated/tendermint/version/types.js";
import { encodeInt64Varint, encodeUvarint, encodeZigzagVarint } from "./varint.js";

export { blockIdIsComplete, blockIdIsZero, zeroBlockId } from "./block-id.js";

const EMPTY = new Uint8Array(0);

function sha256(data: Uint8Array): Uint8Array {
  const d = createHash("sha256").update(data).digest();
  return new Uint8Array(d.buffer, d.byteOffset, d.length);
}

/** `0a len bytes`: a google BytesValue/StringValue; empty input gives an empty leaf. */
function wrapBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 0) return EMPTY;
  const len = encodeUvarint(bytes.length);
  const out = new Uint8Array(1 + len.length + bytes.length);
  out[0] = 0x0a;
  out.set(len, 1);
  out.set(bytes, 1 + len.length);
  return out;
}

/** `08 varint`: a google Int64Value; zero gives an empty leaf. */
function wrapInt64(value: bigint): Uint8Array {
  if (value === 0n) return EMPTY;
  const v = encodeInt64Varint(value);
  const out = new Uint8Array(1 + v.length);
  out[0] = 0x08;
  out.set(v, 1);
  return out;
}

const textEncoder = new TextEncoder();

/** The 14 leaves the header hash is the merkle root of, in order. */
export function headerHashLeaves(header: Header): Uint8Array[] {
  return [
    Consensus.encode(header.version).finish(),
    wrapBytes(textEncoder.encode(header.chainId)),
    wrapInt64(header.height),
    Timestamp.encode(header.time).finish(),
    BlockID.encode(header.lastBlockId).finish(),
    wrapBytes(header.lastCommitHash),
    wrapBytes(header.dataHash),
    wrapBytes(header.validatorsHash),
    wrapBytes(header.nextValidatorsHash),
    wrapBytes(header.consensusHash),
    wrapBytes(header.appHash),
    wrapBytes(header.lastResultsHash),
    wrapBytes(header.evidenceHash),
    wrapBytes(header.proposerAddress),
  ];
}

/**
 * The header hash, which is also the block hash. Empty when the header has no validators hash
 * (Tendermint returns nil there: such a header is incomplete and hashes to nothing).
 */
export function headerHash(header: Header): Uint8Array {
  if (header.validatorsHash.length === 0) return EMPTY;
  return merkleRoot(headerHashLeaves(header));
}

/** sha256(tx): the tx hash of events, RPC and the mempool cache. */
export function txHash(tx: Uint8Array): Uint8Array {
  return sha256(tx);
}

/** Merkle root over the tx hashes (not the raw txs). */
export function dataHash(txs: readonly Uint8Array[]): Uint8Array {
  return merkleRoot(txs.map(txHash));
}

/**
 * Merkle root over the protobuf of each CommitSig, so the empty commit of the initial height
 * hashes to the empty tree. A missing commit has no hash (empty bytes), as Go's nil Commit.Hash().
 */
export function commitHash(commit: Commit | undefined): Uint8Array {
  if (commit === undefined) return EMPTY;
  return merkleRoot(commit.signatures.map((sig) => CommitSig.encode(sig).finish()));
}

/** Merkle root over SimpleValidator {pub_key, voting_power}, in validator-set order. */
export function validatorSetHash(
  validators: readonly { pubKey: PublicKey; votingPower: bigint }[],
): Uint8Array {
  return merkleRoot(
    validators.map((v) => SimpleValidator.encode({ pubKey: v.pubKey, votingPower: v.votingPower }).finish()),
  );
}

/** Plain sha256 of HashedParams {block max_bytes, block max_gas}; the rest is not hashed. */
export function consensusParamsHash(params: ConsensusParams): Uint8Array {
  return sha256(
    HashedParams.encode({ blockMaxBytes: params.block.maxBytes, blockMaxGas: params.block.maxGas }).finish(),
  );
}

/** The deterministic part of a DeliverTx result that LastResultsHash covers. */
export interface DeterministicTxResult {
  code: number;
  data: Uint8Array;
  gasWanted: bigint;
  gasUsed: bigint;
}

/** Merkle root over each result reduced to code, data, gas_wanted and gas_used. */
export function lastResultsHash(deliverTxs: readonly DeterministicTxResult[]): Uint8Array {
  return merkleRoot(
    deliverTxs.map((r) =>
      ResponseDeliverTx.encode({
        code: r.code,
        data: r.data,
        log: "",
        info: "",
        gasWanted: r.gasWanted,
        gasUsed: r.gasUsed,
        events: [],
        codespace: "",
      }).finish(),
    ),
  );
}

/** Protobuf of the concrete evidence message (not the Evidence oneof): Go's evidence.Bytes(). */
export function evidenceBytes(evidence: Evidence): Uint8Array {
  const sum = evidence.sum;
  if (sum?.$case === "duplicateVoteEvidence")
    return DuplicateVoteEvidence.encode(sum.duplicateVoteEvidence).finish();
  if (sum?.$case === "lightClientAttackEvidence")
    return LightClientAttackEvidence.encode(sum.lightClientAttackEvidence).finish();
  throw new WireError("WIRE_UNKNOWN_EVIDENCE", "evidence has no duplicate_vote or light_client_attack value");
}

/** Merkle root over evidenceBytes of each item; no evidence gives the empty-tree hash. */
export function evidenceHash(evidenceList: readonly Evidence[]): Uint8Array {
  return merkleRoot(evidenceList.map(evidenceBytes));
}

/** DuplicateVoteEvidence.Hash(): sha256 of its protobuf. */
export function duplicateVoteEvidenceHash(evidence: DuplicateVoteEvidence): Uint8Array {
  return sha256(DuplicateVoteEvidence.encode(evidence).finish());
}

/**
 * LightClientAttackEvidence.Hash(), reproducing v0.34's quirk: sha256 of the conflicting header
 * hash's first 31 bytes, a zero byte, then the zigzag varint of the common height.
 */
export function lightClientAttackEvidenceHash(evidence: LightClientAttackEvidence): Uint8Array {
  const header = evidence.conflictingBlock?.signedHeader?.header;
  const conflicting = header === undefined ? EMPTY : headerHash(header);
  const height = encodeZigzagVarint(evidence.commonHeight);
  const buf = new Uint8Array(32 + height.length);
  buf.set(conflicting.subarray(0, 31), 0);
  buf.set(height, 32);
  return sha256(buf);
}

/** The hash an evidence item is known by (pool, broadcast_evidence, events). */
export function evidenceItemHash(evidence: Evidence): Uint8Array {
  const sum = evidence.sum;
  if (sum?.$case === "duplicateVoteEvidence") return duplicateVoteEvidenceHash(sum.duplicateVoteEvidence);
  if (sum?.$case === "lightClientAttackEvidence")
    return lightClientAttackEvidenceHash(sum.lightClientAttackEvidence);
  throw new WireError("WIRE_UNKNOWN_EVIDENCE", "evidence has no duplicate_vote or light_client_attack value");
}
