// Blocks: assembling one from header fields, txs, evidence and the last commit (filling the
// hashes the header derives from them), its hash and BlockID, and its encoded form.

import _m0 from "protobufjs/minimal.js";
import { WireError } from "../wire/errors.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { Block } from "../wire/generated/tendermint/types/block.js";
import { type Evidence, EvidenceList } from "../wire/generated/tendermint/types/evidence.js";
import { type BlockID, type BlockMeta, Commit, Header } from "../wire/generated/tendermint/types/types.js";
import type { Consensus } from "../wire/generated/tendermint/version/types.js";
import { commitHash, dataHash, evidenceHash, headerHash } from "../wire/hashes.js";
import { varintLength, writeVarint } from "../wire/varint-bytes.js";
import { blockDataBytesTaken, roomAround } from "./block-data-ahead.js";
import { BLOCK_PROTOCOL_VERSION } from "./block-limits.js";
import { TypesError } from "./errors.js";
import { BLOCK_PART_SIZE_BYTES, type PartSetSplit, splitIntoParts } from "./part-set.js";

export type { BlockMeta, Header };
export { Block };

export interface BlockFields {
  /** Defaults to {block: 11, app: 0}. */
  version?: Consensus;
  chainId: string;
  height: bigint;
  time: Timestamp;
  lastBlockId: BlockID;
  validatorsHash: Uint8Array;
  nextValidatorsHash: Uint8Array;
  consensusHash: Uint8Array;
  appHash: Uint8Array;
  lastResultsHash: Uint8Array;
  proposerAddress: Uint8Array;
  txs: Uint8Array[];
  evidence: Evidence[];
  /** The previous height's commit; emptyCommit() at the initial height. */
  lastCommit: Commit | undefined;
}

/** A block with data_hash, last_commit_hash and evidence_hash filled from its contents. */
export function makeBlock(fields: BlockFields): Block {
  const header: Header = {
    version: fields.version ?? { block: BLOCK_PROTOCOL_VERSION, app: 0n },
    chainId: fields.chainId,
    height: fields.height,
    time: fields.time,
    lastBlockId: fields.lastBlockId,
    lastCommitHash: commitHash(fields.lastCommit),
    dataHash: dataHash(fields.txs),
    validatorsHash: fields.validatorsHash,
    nextValidatorsHash: fields.nextValidatorsHash,
    consensusHash: fields.consensusHash,
    appHash: fields.appHash,
    lastResultsHash: fields.lastResultsHash,
    evidenceHash: evidenceHash(fields.evidence),
    proposerAddress: fields.proposerAddress,
  };
  return {
    header,
    data: { txs: fields.txs },
    evidence: { evidence: fields.evidence },
    lastCommit: fields.lastCommit,
  };
}

/** The block with any missing derived hash filled in (Block.fillHeader). */
export function fillHeaderHashes(block: Block): Block {
  const h = block.header;
  if (h.lastCommitHash.length > 0 && h.dataHash.length > 0 && h.evidenceHash.length > 0) return block;
  return {
    ...block,
    header: {
      ...h,
      lastCommitHash: h.lastCommitHash.length > 0 ? h.lastCommitHash : commitHash(block.lastCommit),
      dataHash: h.dataHash.length > 0 ? h.dataHash : dataHash(block.data.txs),
      evidenceHash: h.evidenceHash.length > 0 ? h.evidenceHash : evidenceHash(block.evidence.evidence),
    },
  };
}

/** The block hash: the header hash after filling derived hashes. Empty without a validators hash. */
export function blockHash(block: Block): Uint8Array {
  return headerHash(fillHeaderHashes(block).header);
}

export function encodeBlock(block: Block): Uint8Array {
  const data = blockDataBytesTaken(block.data.txs);
  return data === undefined ? Block.encode(block).finish() : encodeBlockAroundData(block, data);
}

/**
 * The block's bytes with its Data already encoded (field 2 from `data`): the fields written in
 * number order, each on its own, are what Block.encode writes in one go.
 */
function encodeBlockAroundData(block: Block, data: Uint8Array): Uint8Array {
  const head = Header.encode(block.header, _m0.Writer.create().uint32(10).fork()).ldelim().finish();
  const tail = EvidenceList.encode(block.evidence, _m0.Writer.create().uint32(26).fork()).ldelim();
  if (block.lastCommit !== undefined) Commit.encode(block.lastCommit, tail.uint32(34).fork()).ldelim();
  const rest = tail.finish();
  // Made with room around it (block-data-ahead.ts): the other fields are written in place.
  const room = roomAround(data);
  const before = head.length + 1 + varintLength(data.length);
  const dataAt = data.byteOffset;
  const dataEnd = dataAt + data.length;
  if (room !== undefined && before <= dataAt && rest.length <= room.length - dataEnd) {
    const start = dataAt - before;
    room.set(head, start);
    writeVarint(room, start + head.length + 1, data.length);
    room[start + head.length] = 18;
    room.set(rest, dataEnd);
    return room.subarray(start, dataEnd + rest.length);
  }
  const out = new Uint8Array(head.length + 1 + varintLength(data.length) + data.length + rest.length);
  out.set(head, 0);
  let at = head.length;
  out[at++] = 18;
  at = writeVarint(out, at, data.length);
  out.set(data, at);
  out.set(rest, at + data.length);
  return out;
}

/** Decodes a block, refusing more than `maxBytes` (the consensus params' block max_bytes). */
export function decodeBlock(bytes: Uint8Array, maxBytes: number): Block {
  if (bytes.length > maxBytes)
    throw new TypesError(
      "TYPES_BLOCK_TOO_LARGE",
      `block is ${bytes.length} bytes, over the limit of ${maxBytes}`,
    );
  try {
    return Block.decode(bytes);
  } catch (error) {
    throw new WireError("WIRE_DECODE_FAILED", `block bytes do not decode: ${(error as Error).message}`);
  }
}

/** What the block store keeps per height beside the parts (tendermint.types.BlockMeta). */
export function makeBlockMeta(block: Block, blockId: BlockID, blockSize: number): BlockMeta {
  return {
    blockId,
    blockSize: BigInt(blockSize),
    header: block.header,
    numTxs: BigInt(block.data.txs.length),
  };
}

export interface BlockPartsAndId extends PartSetSplit {
  blockId: BlockID;
}

/** The part set of a block and its BlockID {hash, part-set header} (what a proposal names). */
export function blockPartsAndId(block: Block, partSize = BLOCK_PART_SIZE_BYTES): BlockPartsAndId {
  const split = splitIntoParts(encodeBlock(block), partSize);
  return { ...split, blockId: { hash: blockHash(block), partSetHeader: split.header } };
}
