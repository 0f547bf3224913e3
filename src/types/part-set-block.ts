// The block a complete part set carries, decoded and hashed once per part set in a process (or
// not at all, when the process built that block itself: rememberSplitBlock). Every
// receiver of a proposal assembles the same parts and decodes the same bytes: in a simulation all
// validators share the process, so without this each decoded and hashed the block itself (and each
// then hashed its own copy's header, LastCommit and txs again in block validation, whose per-object
// memos could not see the copies were equal). A node decodes a part set once per round it arrives in.
//
// Keyed by the part set header (the merkle root over the parts' bytes, and the part count): a part
// set is complete only after every part's proof was checked against that root (addPart), so the
// key fixes the bytes, and the answer is the one decoding them would give. The memo of a pure
// function: it changes the cost, never an answer. The decoded block is shared by whoever asks, so
// it is read-only data, as every block in a reducer's state is. Bounded by count and by bytes, the
// oldest part set first: a node gains only when a part set comes back in a later round, so a long
// memory would just keep old heights' blocks (and every tx in them) alive; the simulation's
// validators ask within the same height. The newest block is always kept, whatever its size.
import type { Block } from "../wire/generated/tendermint/types/block.js";
import { blockHash, decodeBlock } from "./block.js";
import { TypesError } from "./errors.js";
import { type PartSetState, partSetBytes } from "./part-set.js";
import { takeDataHashOfParts } from "./part-set-data-hash.js";
import { partSetKey } from "./part-set-key.js";

/** Part sets remembered at once: the rounds of the current height, with room for a fork. */
export const PART_SET_BLOCKS_KEPT = 4;
/** Their parts' bytes at most (the decoded blocks hold views into those bytes). */
export const PART_SET_BYTES_KEPT = 16 * 1024 * 1024;

export interface PartSetBlock {
  readonly block: Block;
  /** The block hash (blockHash). */
  readonly hash: Uint8Array;
}

interface Remembered extends PartSetBlock {
  readonly byteSize: number;
}

const decoded = new Map<string, Remembered>();
let bytesKept = 0;

const keyOf = (parts: PartSetState) => partSetKey(parts.header);

/**
 * The block of a complete part set and its hash; throws as decodeBlock does (over `maxBytes`, or
 * bytes that do not decode) and as partSetBytes does (incomplete). A failure is not remembered.
 */
export function partSetBlock(parts: PartSetState, maxBytes: number): PartSetBlock {
  const key = keyOf(parts);
  const known = decoded.get(key);
  if (known !== undefined && parts.count === parts.header.total) {
    // The size limit is the asker's (its consensus params), so it is checked for every asker.
    if (parts.byteSize > maxBytes)
      throw new TypesError(
        "TYPES_BLOCK_TOO_LARGE",
        `block is ${parts.byteSize} bytes, over the limit of ${maxBytes}`,
      );
    return { block: known.block, hash: known.hash };
  }
  const bytes = partSetBytes(parts);
  const block = decodeBlock(bytes, maxBytes);
  takeDataHashOfParts(parts, bytes, block);
  const answer: Remembered = { block, hash: blockHash(block), byteSize: parts.byteSize };
  remember(key, answer);
  return { block: answer.block, hash: answer.hash };
}

/**
 * Records the block a complete part set was split from (blockPartsAndId of this very block, so the
 * parts' bytes are its encoding) with its hash: the proposer's own block. The receivers in this
 * process then get that block instead of decoding the same bytes again, and so the per-object
 * memos of its header, LastCommit and txs hashes answer their block checks too. Decoding an
 * encoded block gives the block back (the round trip of test/unit/types-part-set-block.test.ts;
 * byte fields may come back as Buffers, which every reader treats as the bytes they are).
 */
export function rememberSplitBlock(parts: PartSetState, block: Block, hash: Uint8Array): void {
  if (parts.count !== parts.header.total) return;
  remember(keyOf(parts), { block, hash, byteSize: parts.byteSize });
}

function remember(key: string, answer: Remembered): void {
  decoded.set(key, answer);
  bytesKept += answer.byteSize;
  for (const [oldKey, old] of decoded) {
    if (decoded.size <= 1) break;
    if (decoded.size <= PART_SET_BLOCKS_KEPT && bytesKept <= PART_SET_BYTES_KEPT) break;
    decoded.delete(oldKey);
    bytesKept -= old.byteSize;
  }
}

/** How many part sets and bytes are remembered now (for tests of the bounds). */
export function partSetBlocksKept(): { count: number; bytes: number } {
  return { count: decoded.size, bytes: bytesKept };
}
