// The largest record the consensus log can be asked to hold, from the protocol's limits: the
// log's default record bound. A record over it is refused when written (WAL_RECORD_TOO_LARGE) and
// read as damage, so the bound must hold every input a chain within the protocol can produce,
// whatever max_bytes the genesis or the app (EndBlock's consensus_param_updates) sets.
//
// Which inputs grow with the chain's limits (the others are a vote, a proposal, a few fields):
// - ProposalBlockReaped: our own proposal's txs and evidence, a whole block's content in one
//   record. A tx costs the record exactly what it costs the block's protobuf data (one tag byte,
//   the length as LEB128, the bytes: the record codec's byte string has the same form), and txs
//   and evidence together stay within block.max_bytes ≤ MAX_BLOCK_SIZE_BYTES (the reaper counts
//   evidence at its protobuf size within evidence.max_bytes ≤ block.max_bytes, then fills the
//   rest with txs). Evidence costs the record more than its protobuf: the codec writes every
//   field with its name, where protobuf writes a tag and leaves zero fields out. The worst a
//   validated evidence reaches is an absent signature in a light-client attack's conflicting
//   commit, 82 record bytes for its 17 protobuf bytes (4.8x); test/unit/wal-record-bound.test.ts
//   measures the shapes validation admits against EVIDENCE_RECORD_FACTOR.
// - BlockPartReceived: one 64 KiB part and its proof, never a whole block (a peer's block and our
//   own proposal's block travel in parts).
// - ConsensusStarted, BlockExecuted: the chain state (three validator sets) and a commit. No
//   commit holds more than 10,000 signatures (v0.34's MaxVotesCount), so a chain with more
//   validators stops at its next height: a few MiB at most.
import { MAX_BLOCK_SIZE_BYTES } from "../types/block-limits.js";

/** Record bytes per protobuf byte of the costliest content a block can carry (evidence). */
export const EVIDENCE_RECORD_FACTOR = 5;

/** The record's own fields around the block's content (type, time, height, round, list headers). */
export const RECORD_ENVELOPE_BYTES = 64 * 1024;

/**
 * The default record bound: a ProposalBlockReaped of a block at the protocol's 100 MiB, all of it
 * evidence at its worst encoding (524,353,536 bytes, 500 MiB and 64 KiB). The scanner's memory
 * follows the records in the file, not this bound (segment-scanner.ts).
 */
export const DEFAULT_MAX_RECORD_BYTES = EVIDENCE_RECORD_FACTOR * MAX_BLOCK_SIZE_BYTES + RECORD_ENVELOPE_BYTES;
