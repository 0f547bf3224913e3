// A peer's block's data hash made as its parts arrive, not after the last one: the txs of Data are
// read from the parts' bytes in order (each part once the parts before it are in), each tx's
// digests taken from the admitted txs' memo or hashed, and the merkle tree built leaf by leaf
// (merkle-incremental.ts). When the last part completes the set, only the last part's txs and
// O(log n) inner nodes remain, where before the whole tree (about one hash per tx, tens of ms for
// an 8,000-tx block under load) ran between "parts complete" and our prevote.
//
// The memo of a pure function, as part-set-block.ts's: it changes when the work is done, never an
// answer. What it read is used only when the full decode of the complete part set (Block.decode,
// the one decoder) gives exactly the txs it read: as many, each at the same offset of the same
// assembled bytes with the same length. Otherwise (a layout it does not follow, such as fields out
// of order or Data given twice, or anything it could not read) it answers nothing and dataHash
// hashes the decoded txs as before, so a bad block is rejected by the same checks as before.
// Bounded: a few part sets at once, and the bytes of one unread item (a tx split by a part's end).

import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { PartSetHeader } from "../wire/generated/tendermint/types/types.js";
import { putAdmittedDigests, rememberDataHashOf } from "../wire/hashes.js";
import { IncrementalMerkleRoot } from "../wire/merkle-incremental.js";
import { partSetKey } from "./part-set-key.js";

/** What is read of a part set (part-set.ts's PartSetState, which calls in here as parts arrive). */
export interface PartsSoFar {
  readonly header: PartSetHeader;
  readonly parts: readonly ({ readonly bytes: Uint8Array } | undefined)[];
}

/** Part sets read at once (the rounds of a height, as part-set-block.ts keeps). */
export const PART_SET_DATA_KEPT = 4;

/** Block field 1 (header) and field 2 (data), and Data field 1 (txs): length-delimited tags. */
const TAG_HEADER = 0x0a;
const TAG_DATA = 0x12;
const TAG_TX = 0x0a;

enum Phase {
  /** Before the header. */
  Header,
  /** After the header, before Data. */
  Data,
  /** Inside Data: txs. */
  Txs,
  /** Data read to its end. */
  Done,
  /** A layout this reader does not follow: the full decode decides alone. */
  Off,
}

class DataOfParts {
  phase = Phase.Header;
  /** Parts read: every part below this index. */
  nextPart = 0;
  /** Unread bytes (their concatenation starts at stream offset `base`) and their length. */
  pending: Uint8Array[] = [];
  pendingBytes = 0;
  base = 0;
  /** Bytes of the stream to pass over before reading on (the header's). */
  skip = 0;
  /** Unread bytes needed before the next item can be read. */
  need = 1;
  /** Stream offset where Data ends. */
  dataEnd = 0;
  readonly offsets: number[] = [];
  readonly lengths: number[] = [];
  readonly hashes: Uint8Array[] = [];
  readonly leaves: Uint8Array[] = [];
  readonly tree = new IncrementalMerkleRoot();
}

const reading = new Map<string, DataOfParts>();

/** A varint of at most 5 bytes (a length or tag below 2^32) at buf[at..): [value, end], or -1 short, -2 bad. */
function varint(buf: Uint8Array, at: number): number {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (at + i >= buf.length) return -1;
    const b = buf[at + i]!;
    value += (b & 0x7f) * 2 ** (7 * i);
    if (b < 0x80) {
      varintEnd = at + i + 1;
      return value;
    }
  }
  return -2;
}
let varintEnd = 0;

/** Reads what the unread bytes hold; leaves the rest unread. */
function readPending(state: DataOfParts): void {
  if (state.pendingBytes < state.need) return;
  let buf: Uint8Array;
  if (state.pending.length === 1) buf = state.pending[0]!;
  else {
    buf = new Uint8Array(state.pendingBytes);
    let at = 0;
    for (const chunk of state.pending) {
      buf.set(chunk, at);
      at += chunk.length;
    }
  }
  let pos = 0;
  read: while (pos < buf.length) {
    const start = pos;
    const offset = state.base + pos;
    if (state.phase === Phase.Txs && offset === state.dataEnd) {
      state.phase = Phase.Done;
      break;
    }
    const tag = varint(buf, pos);
    if (tag === -1) break;
    pos = varintEnd;
    const length = tag < 0 ? -2 : varint(buf, pos);
    if (length === -1) {
      pos = start;
      break;
    }
    if (length === -2) {
      state.phase = Phase.Off;
      break;
    }
    const body = varintEnd;
    switch (state.phase) {
      case Phase.Header:
        if (tag !== TAG_HEADER) break;
        state.phase = Phase.Data;
        state.skip = length;
        pos = body;
        // Passed over here or, when it runs past these bytes, as the next parts arrive.
        if (pos + length <= buf.length) {
          pos += length;
          state.skip = 0;
          continue read;
        }
        state.skip = pos + length - buf.length;
        pos = buf.length;
        break read;
      case Phase.Data:
        if (tag !== TAG_DATA) break;
        state.phase = Phase.Txs;
        state.dataEnd = state.base + body + length;
        pos = body;
        continue read;
      case Phase.Txs:
        if (tag !== TAG_TX || state.base + body + length > state.dataEnd) break;
        if (body + length > buf.length) {
          state.need = body + length - start;
          pos = start;
          break read;
        }
        {
          const i = state.offsets.length;
          state.offsets.push(state.base + body);
          state.lengths.push(length);
          putAdmittedDigests(state.hashes, state.leaves, i, buf.subarray(body, body + length));
          state.tree.push(state.leaves[i]!);
        }
        pos = body + length;
        state.need = 1;
        continue read;
    }
    // A tag this reader does not follow here.
    state.phase = Phase.Off;
    break;
  }
  if (state.phase === Phase.Txs && state.base + pos === state.dataEnd) state.phase = Phase.Done;
  state.base += pos;
  const rest = buf.subarray(pos);
  state.pending = rest.length === 0 ? [] : [rest];
  state.pendingBytes = rest.length;
  if (state.pendingBytes >= state.need) state.need = state.pendingBytes + 1;
}

function readPart(state: DataOfParts, bytes: Uint8Array): void {
  let chunk = bytes;
  if (state.skip > 0) {
    const passed = Math.min(state.skip, chunk.length);
    state.skip -= passed;
    state.base += passed;
    chunk = chunk.subarray(passed);
  }
  if (chunk.length === 0) return;
  state.pending.push(chunk);
  state.pendingBytes += chunk.length;
  readPending(state);
}

/**
 * Reads the parts of `set` that now continue the bytes read so far (called as each part is
 * accepted). Cheap when they do not: a part ahead of a gap waits for the gap.
 */
export function readDataOfParts(set: PartsSoFar): void {
  const key = partSetKey(set.header);
  let state = reading.get(key);
  if (state === undefined) {
    if (set.parts[0] === undefined) return;
    state = new DataOfParts();
    reading.set(key, state);
    for (const old of reading.keys()) {
      if (reading.size <= PART_SET_DATA_KEPT) break;
      reading.delete(old);
    }
  }
  while (state.phase < Phase.Done && state.nextPart < set.header.total) {
    const part = set.parts[state.nextPart];
    if (part === undefined) return;
    state.nextPart++;
    readPart(state, part.bytes);
  }
  if (state.phase >= Phase.Done) state.pending = [];
}

/**
 * Once the complete part set's bytes decoded to `block`: hands dataHash the hash read from the
 * parts, if what was read is exactly the block's txs (same count, each at the same offset of
 * `bytes` with the same length). Forgets the part set's reading either way.
 */
export function takeDataHashOfParts(set: PartsSoFar, bytes: Uint8Array, block: Block): boolean {
  const key = partSetKey(set.header);
  const state = reading.get(key);
  if (state === undefined) return false;
  reading.delete(key);
  const txs = block.data.txs;
  if (state.phase !== Phase.Done || txs.length !== state.offsets.length) return false;
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i]!;
    if (tx.length !== state.lengths[i]) return false;
    if (tx.length === 0) continue;
    if (tx.buffer !== bytes.buffer || tx.byteOffset - bytes.byteOffset !== state.offsets[i]) return false;
  }
  rememberDataHashOf(txs, state.hashes, state.tree.root());
  return true;
}

/** Part sets being read now (for tests of the bound). */
export function partSetsBeingRead(): number {
  return reading.size;
}
