// The block a complete part set carries, decoded and hashed once per part set in a process. Every
// receiver of a proposal assembles the same parts and decodes the same bytes: in a simulation all
// validators share the process, so without this each decoded and hashed the block itself (and each
// then hashed its own copy's header, LastCommit and txs again in block validation, whose per-object
// memos could not see the copies were equal). A node decodes a part set once per round it arrives in.
//
// Keyed by the part set header (the merkle root over the parts' bytes, and the part count): a part
// set is complete only after every part's proof was checked against that root (addPart), so the
// key fixes the bytes, and the answer is the one decoding them would give. The memo of a pure
// function: it changes the cost, never an answer. The decoded block is shared by whoever asks, so
// it is read-only data, as every block in a reducer's state is. Bounded: the oldest part set goes
// first; a few heights' rounds are all that are ever asked about again.
import type { Block } from "../wire/generated/tendermint/types/block.js";
import { blockHash, decodeBlock } from "./block.js";
import { TypesError } from "./errors.js";
import { type PartSetState, partSetBytes } from "./part-set.js";

/** Part sets remembered at once: every round of a few heights, with room for a few forks. */
export const PART_SET_BLOCKS_KEPT = 32;

export interface PartSetBlock {
  readonly block: Block;
  /** The block hash (blockHash). */
  readonly hash: Uint8Array;
}

const decoded = new Map<string, PartSetBlock>();

/**
 * The block of a complete part set and its hash; throws as decodeBlock does (over `maxBytes`, or
 * bytes that do not decode) and as partSetBytes does (incomplete). A failure is not remembered.
 */
export function partSetBlock(parts: PartSetState, maxBytes: number): PartSetBlock {
  const key = `${Buffer.from(parts.header.hash).toString("latin1")}/${parts.header.total}`;
  const known = decoded.get(key);
  if (known !== undefined && parts.count === parts.header.total) {
    // The size limit is the asker's (its consensus params), so it is checked for every asker.
    if (parts.byteSize > maxBytes)
      throw new TypesError(
        "TYPES_BLOCK_TOO_LARGE",
        `block is ${parts.byteSize} bytes, over the limit of ${maxBytes}`,
      );
    return known;
  }
  const block = decodeBlock(partSetBytes(parts), maxBytes);
  const answer: PartSetBlock = { block, hash: blockHash(block) };
  if (decoded.size >= PART_SET_BLOCKS_KEPT) decoded.delete(decoded.keys().next().value as string);
  decoded.set(key, answer);
  return answer;
}
