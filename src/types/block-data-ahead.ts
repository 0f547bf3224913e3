// Our proposal's Data (its txs as protobuf) encoded before the block is built: the node's reaping
// makes it a piece per turn of the event loop, as it makes the data hash (wire/hashes.ts,
// dataHashAhead), and encodeBlock inside the consensus fold then copies it into the block's bytes
// instead of encoding tens of thousands of txs there in one piece (12-120 ms for 20,000 txs of
// 100 bytes, most of a proposal's part encoding). The bytes are Data.encode's exactly; replay and
// the simulation, which make nothing ahead, encode in the fold and get the same block bytes.
import { taggedItemsLength, writeField1ItemsInPieces } from "../wire/repeated-bytes-in-pieces.js";

/**
 * Txs encoded between two looks at the pause (a budget of work): 512 txs of 100 bytes are ~54 KB
 * written into fresh memory, where 2,048 were ~210 KB, ~0.6 ms of first touch alone here, past the
 * budget's end (docs/storage.md, twenty-fifth pass).
 */
export const BLOCK_DATA_PIECE = 512;

/**
 * Room left before and after Data's bytes for the block's other fields, so that encodeBlock writes
 * them in place (block.ts, encodeBlockAroundData) instead of copying the Data into a fresh block-sized
 * array inside the consensus fold: on the project's machine the first touch of fresh memory costs
 * ~3 ms a MB, so that copy was 8–30 ms of the proposal's turn (docs/storage.md, "Twenty-fourth
 * pass"). Before: the header (a few hundred bytes, its chain id at most 50), and Data's own tag and
 * length. After: the evidence and the last commit (~110 bytes a validator). Pages of the room never
 * written are never touched; a block whose fields do not fit is encoded by copying, as before.
 */
export const DATA_HEAD_ROOM = 1024;
export const DATA_TAIL_ROOM = 64 * 1024;

/** The arrays made by dataWithRoom: only their rooms may be written around the Data. */
const roomy = new WeakSet<ArrayBufferLike>();

/** An array for `size` bytes of Data, with the rooms above around it in the same buffer. */
export function dataWithRoom(size: number): Uint8Array {
  const buffer = new Uint8Array(DATA_HEAD_ROOM + size + DATA_TAIL_ROOM);
  roomy.add(buffer.buffer);
  return buffer.subarray(DATA_HEAD_ROOM, DATA_HEAD_ROOM + size);
}

/**
 * The whole array around `data` when `data` came from dataWithRoom, or undefined; given once per
 * buffer (the block's bytes are written in it once).
 */
export function roomAround(data: Uint8Array): Uint8Array | undefined {
  if (!roomy.has(data.buffer)) return undefined;
  roomy.delete(data.buffer);
  return new Uint8Array(data.buffer, 0, data.buffer.byteLength);
}

interface DataAhead {
  /** The txs encoded: an entry answers only while the array still holds these very txs. */
  readonly txs: readonly Uint8Array[];
  readonly bytes: Uint8Array;
}
const made = new WeakMap<readonly Uint8Array[], DataAhead>();

/**
 * Encodes Data {txs} for this array, `piece` txs at a time with `pause()` awaited between pieces,
 * and remembers the bytes for it until blockDataBytesTaken takes them. The caller must not change
 * `txs` after.
 */
export async function blockDataBytesAhead(
  txs: readonly Uint8Array[],
  pause: () => Promise<void>,
  piece = BLOCK_DATA_PIECE,
): Promise<void> {
  // Field 1 (txs), length-delimited: every tx, an empty one too, as the generated encoder writes.
  const bytes = dataWithRoom(taggedItemsLength(txs));
  await writeField1ItemsInPieces(txs, 0, txs.length, bytes, 0, pause, piece);
  made.set(txs, { txs: txs.slice(), bytes });
}

/**
 * Remembers Data {txs} bytes made elsewhere for this array (a prefix encoded ahead and the rest
 * appended: a repeated field's items are encoded one after another, so the two joined are the
 * whole encoding). The caller vouches for the bytes and must not change `txs` after.
 */
export function rememberBlockDataBytes(txs: readonly Uint8Array[], bytes: Uint8Array): void {
  made.set(txs, { txs: txs.slice(), bytes });
}

/**
 * The Data bytes made ahead for this very array, if they were and it still holds the txs encoded;
 * taken once (the block's bytes are made once; a second encoding encodes afresh).
 */
export function blockDataBytesTaken(txs: readonly Uint8Array[]): Uint8Array | undefined {
  const ahead = made.get(txs);
  if (ahead === undefined) return undefined;
  made.delete(txs);
  const encoded = ahead.txs;
  if (encoded.length !== txs.length) return undefined;
  for (let i = 0; i < txs.length; i++) if (encoded[i] !== txs[i]) return undefined;
  return ahead.bytes;
}
