// Part sets (types/part_set.go): a block's protobuf bytes cut into 64 KiB parts, each carrying a
// merkle proof against the part-set hash, and an assembler that takes parts in any order from
// peers, checks each against the PartSetHeader, and yields the block bytes once all are in.
// The assembler is an immutable value so reducers can hold it in their state.
import { HASH_SIZE } from "../crypto/hash.js";
import { merkleProofs } from "../crypto/merkle.js";
import { MerkleProofError, verifyMerkleProof } from "../crypto/merkle-proof.js";
import type { Part, PartSetHeader } from "../wire/generated/tendermint/types/types.js";
import { TypesError } from "./errors.js";
import { readDataOfParts } from "./part-set-data-hash.js";

/** BlockPartSizeBytes: every part but the last is exactly this long. */
export const BLOCK_PART_SIZE_BYTES = 65536;
/** MaxBlockSizeBytes / BlockPartSizeBytes + 1. */
export const MAX_BLOCK_PARTS = 1601;

export interface PartSetSplit {
  header: PartSetHeader;
  parts: Part[];
}

/** Cuts bytes into parts of `partSize` (the last shorter), with proofs and the header. */
export function splitIntoParts(data: Uint8Array, partSize = BLOCK_PART_SIZE_BYTES): PartSetSplit {
  if (!Number.isInteger(partSize) || partSize <= 0)
    throw new RangeError(`part size must be a positive integer, got ${partSize}`);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < data.length; offset += partSize)
    chunks.push(data.subarray(offset, Math.min(offset + partSize, data.length)));
  const { root, proofs } = merkleProofs(chunks);
  return {
    header: { total: chunks.length, hash: root },
    parts: chunks.map((bytes, index) => ({ index, bytes, proof: proofs[index]! })),
  };
}

export interface PartSetState {
  readonly header: PartSetHeader;
  /** parts[i] once part i has been accepted. */
  readonly parts: readonly (Part | undefined)[];
  readonly count: number;
  readonly byteSize: number;
  /** Upper bound on the assembled bytes (the block max_bytes), if any. */
  readonly maxBytes: number | undefined;
}

/** An empty assembler for the part set a proposal or a +2/3 majority announced. */
export function emptyPartSet(header: PartSetHeader, maxBytes?: number): PartSetState {
  if (header.total <= 0 || header.total > MAX_BLOCK_PARTS)
    throw new TypesError(
      "TYPES_INVALID_FIELD",
      `partSetHeader.total must be in [1, ${MAX_BLOCK_PARTS}], got ${header.total}`,
      "partSetHeader.total",
    );
  if (header.hash.length !== HASH_SIZE)
    throw new TypesError(
      "TYPES_INVALID_FIELD",
      `partSetHeader.hash must be ${HASH_SIZE} bytes, got ${header.hash.length}`,
      "partSetHeader.hash",
    );
  return { header, parts: new Array(header.total).fill(undefined), count: 0, byteSize: 0, maxBytes };
}

export function partSetIsComplete(set: PartSetState): boolean {
  return set.count === set.header.total;
}

export function hasPart(set: PartSetState, index: number): boolean {
  return set.parts[index] !== undefined;
}

/**
 * Accepts one part: it must lie in range, not be a duplicate, have the right size, and its proof
 * must lead from its bytes to the header's hash at its own index. Returns the new state; throws
 * TypesError (code TYPES_PART_*) otherwise, leaving `set` untouched. A duplicate is reported
 * with its own code so gossip can ignore it without punishing the peer.
 */
export function addPart(set: PartSetState, part: Part): PartSetState {
  const { total, hash } = set.header;
  if (!Number.isInteger(part.index) || part.index < 0 || part.index >= total)
    throw new TypesError(
      "TYPES_PART_INDEX_OUT_OF_RANGE",
      `part.index ${part.index} is outside the part set of ${total} parts`,
      "part.index",
    );
  if (set.parts[part.index] !== undefined)
    throw new TypesError("TYPES_PART_DUPLICATE", `part ${part.index} was already added`, "part.index");
  const isLast = part.index === total - 1;
  if (part.bytes.length > BLOCK_PART_SIZE_BYTES || (!isLast && part.bytes.length !== BLOCK_PART_SIZE_BYTES))
    throw new TypesError(
      "TYPES_PART_INVALID_PROOF",
      `part ${part.index} has ${part.bytes.length} bytes; ${isLast ? "at most" : "exactly"} ${BLOCK_PART_SIZE_BYTES} expected`,
      "part.bytes",
    );
  if (part.proof.index !== BigInt(part.index) || part.proof.total !== BigInt(total))
    throw new TypesError(
      "TYPES_PART_INVALID_PROOF",
      `part ${part.index} carries a proof for index ${part.proof.index} of ${part.proof.total}, expected ${part.index} of ${total}`,
      "part.proof",
    );
  try {
    verifyMerkleProof(part.proof, hash, part.bytes, `part ${part.index} proof`);
  } catch (error) {
    if (error instanceof MerkleProofError)
      throw new TypesError("TYPES_PART_INVALID_PROOF", error.message, "part.proof");
    throw error;
  }
  const byteSize = set.byteSize + part.bytes.length;
  if (set.maxBytes !== undefined && byteSize > set.maxBytes)
    throw new TypesError(
      "TYPES_PART_SET_TOO_LARGE",
      `part set grows to ${byteSize} bytes with part ${part.index}, over the limit of ${set.maxBytes}`,
      "part.bytes",
    );
  const parts = set.parts.slice();
  parts[part.index] = part;
  const next: PartSetState = { ...set, parts, count: set.count + 1, byteSize };
  // The block's txs hashed as their parts come in, so little is left once the last one does.
  readDataOfParts(next);
  return next;
}

/** The assembled bytes; throws TYPES_PART_SET_INCOMPLETE until every part is in. */
export function partSetBytes(set: PartSetState): Uint8Array {
  if (!partSetIsComplete(set))
    throw new TypesError(
      "TYPES_PART_SET_INCOMPLETE",
      `part set has ${set.count} of ${set.header.total} parts`,
    );
  const out = new Uint8Array(set.byteSize);
  let offset = 0;
  for (const part of set.parts) {
    out.set(part!.bytes, offset);
    offset += part!.bytes.length;
  }
  return out;
}

/** Indices still missing, for gossip and block-part requests. */
export function missingParts(set: PartSetState): number[] {
  const missing: number[] = [];
  set.parts.forEach((p, i) => {
    if (p === undefined) missing.push(i);
  });
  return missing;
}
