// Our proposal's Data (its txs as protobuf) encoded before the block is built: the node's reaping
// makes it a piece per turn of the event loop, as it makes the data hash (wire/hashes.ts,
// dataHashAhead), and encodeBlock inside the consensus fold then copies it into the block's bytes
// instead of encoding tens of thousands of txs there in one piece (12-120 ms for 20,000 txs of
// 100 bytes, most of a proposal's part encoding). The bytes are Data.encode's exactly; replay and
// the simulation, which make nothing ahead, encode in the fold and get the same block bytes.
import { field1ItemsInPieces } from "../wire/repeated-bytes-in-pieces.js";

/** Txs encoded between two pauses. */
export const BLOCK_DATA_PIECE = 2048;

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
  const bytes = await field1ItemsInPieces(txs, pause, piece);
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
