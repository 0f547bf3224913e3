// What we believe a peer holds (v0.34's PeerRoundState): its height, round and step, its
// proposal's part set and which parts it has, its POL round's prevotes, and which prevotes and
// precommits it has for its round, its last commit and a catch-up commit. Learnt from its
// NewRoundStep, NewValidBlock, ProposalPOL, HasVote and VoteSetBits, from the proposals, parts and
// votes it sent us, and from what we sent it. Every function returns a new value (or the same one
// when nothing changes).
import type { PartSetHeader } from "../../wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../wire/generated/tendermint/types/types.js";
import { type Bits, emptyBits, resized, withBit } from "./bit-array.js";
import { sameHeader } from "./our-view.js";

export interface PeerRoundState {
  readonly height: bigint;
  /** -1 until the peer's first NewRoundStep. */
  readonly round: number;
  /** RoundStep number; 0 until the first NewRoundStep. */
  readonly step: number;
  /** When the peer's height started, in our ms clock (from seconds_since_start_time). */
  readonly startTimeMs: number;
  readonly proposal: boolean;
  readonly proposalHeader: PartSetHeader | undefined;
  readonly proposalParts: Bits | undefined;
  /**
   * When the peer last showed progress on its part set (the set became known, or a message of its
   * own added parts to it), in our ms clock: the relay rule (gossip-data.ts) reads how long ago.
   */
  readonly partsAtMs: number;
  readonly proposalPolRound: number;
  readonly proposalPol: Bits | undefined;
  readonly prevotes: Bits | undefined;
  readonly precommits: Bits | undefined;
  readonly lastCommitRound: number;
  readonly lastCommit: Bits | undefined;
  readonly catchupCommitRound: number;
  readonly catchupCommit: Bits | undefined;
}

export const INITIAL_PEER_ROUND_STATE: PeerRoundState = {
  height: 0n,
  round: -1,
  step: 0,
  startTimeMs: 0,
  proposal: false,
  proposalHeader: undefined,
  proposalParts: undefined,
  partsAtMs: 0,
  proposalPolRound: -1,
  proposalPol: undefined,
  prevotes: undefined,
  precommits: undefined,
  lastCommitRound: -1,
  lastCommit: undefined,
  catchupCommitRound: -1,
  catchupCommit: undefined,
};

const PREVOTE = SignedMsgType.SIGNED_MSG_TYPE_PREVOTE;
const PRECOMMIT = SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT;

export interface NewRoundStepFields {
  readonly height: bigint;
  readonly round: number;
  readonly step: number;
  readonly secondsSinceStartTime: bigint;
  readonly lastCommitRound: number;
}

/** A PeerRoundState being built: only ever a fresh copy, filled in before it is returned. */
type Draft = { -readonly [K in keyof PeerRoundState]: PeerRoundState[K] };

/**
 * A field-by-field copy of `ps` that its caller changes before returning it: every update here
 * copies the peer's 15 fields, and an object spread (`{ ...ps, field }`) runs V8's generic clone,
 * where one literal in a fixed field order is a plain allocation of one hidden class. This runs
 * for every vote, part and announcement a peer is sent or tells us of.
 */
export function copied(ps: PeerRoundState): Draft {
  return {
    height: ps.height,
    round: ps.round,
    step: ps.step,
    startTimeMs: ps.startTimeMs,
    proposal: ps.proposal,
    proposalHeader: ps.proposalHeader,
    proposalParts: ps.proposalParts,
    partsAtMs: ps.partsAtMs,
    proposalPolRound: ps.proposalPolRound,
    proposalPol: ps.proposalPol,
    prevotes: ps.prevotes,
    precommits: ps.precommits,
    lastCommitRound: ps.lastCommitRound,
    lastCommit: ps.lastCommit,
    catchupCommitRound: ps.catchupCommitRound,
    catchupCommit: ps.catchupCommit,
  };
}

/** -1, 0, 1 as (height, round, step) of `a` orders before, equal to or after `b`'s. */
function compareHrs(a: NewRoundStepFields, b: PeerRoundState): number {
  if (a.height !== b.height) return a.height < b.height ? -1 : 1;
  if (a.round !== b.round) return a.round < b.round ? -1 : 1;
  return a.step === b.step ? 0 : a.step < b.step ? -1 : 1;
}

/** The peer moved on (never back: a repeated or older step is ignored, as v0.34 does). */
export function applyNewRoundStep(ps: PeerRoundState, m: NewRoundStepFields, nowMs: number): PeerRoundState {
  if (compareHrs(m, ps) <= 0) return ps;
  const sameHeight = ps.height === m.height;
  const moved = !sameHeight || ps.round !== m.round;
  const next = copied(ps);
  next.height = m.height;
  next.round = m.round;
  next.step = m.step;
  next.startTimeMs = nowMs - Number(m.secondsSinceStartTime) * 1000;
  if (moved) {
    next.proposal = false;
    next.proposalHeader = undefined;
    next.proposalParts = undefined;
    next.proposalPolRound = -1;
    next.proposalPol = undefined;
    next.prevotes = undefined;
    next.precommits = undefined;
  }
  // The peer reached the round of the commit we were catching it up with: those are its precommits.
  if (sameHeight && ps.round !== m.round && m.round === ps.catchupCommitRound)
    next.precommits = ps.catchupCommit;
  if (!sameHeight) {
    // Its precommits of the height it left become its last commit, when the rounds agree.
    const kept = ps.height + 1n === m.height && ps.round === m.lastCommitRound;
    next.lastCommitRound = m.lastCommitRound;
    next.lastCommit = kept ? ps.precommits : undefined;
    next.catchupCommitRound = -1;
    next.catchupCommit = undefined;
  }
  return next;
}

export function applyNewValidBlock(
  ps: PeerRoundState,
  height: bigint,
  round: number,
  header: PartSetHeader,
  parts: Bits,
  isCommit: boolean,
): PeerRoundState {
  if (ps.height !== height) return ps;
  if (ps.round !== round && !isCommit) return ps;
  const known = ps.proposalParts;
  // Outside the commit, a NewValidBlock for the part set we already track adds to what we believe
  // it holds: rxbft peers send one as their parts arrive (announce.ts), while parts we sent are
  // still on their way, and replacing our bits with theirs would send those parts again. One with
  // no part is a fresh part set, never such a hint: CometBFT v0.34 sends it (IsCommit false, its
  // step not yet Commit) when it starts collecting a block it lacks, having dropped every part
  // that came before, so it replaces ours and those parts go again.
  if (
    !isCommit &&
    hasAnyBit(parts) &&
    known !== undefined &&
    ps.proposalHeader !== undefined &&
    sameHeader(ps.proposalHeader, header)
  ) {
    const union = unionBits(known, parts);
    if (union === known) return ps;
    const next = copied(ps);
    next.proposalParts = union;
    return next;
  }
  const next = copied(ps);
  next.proposalHeader = header;
  next.proposalParts = parts;
  return next;
}

function hasAnyBit(bits: Bits): boolean {
  for (let i = 0; i < bits.length; i++) if (bits[i] === 1) return true;
  return false;
}

/** `a` with every bit of `b` set too (the same array when `b` adds none; `b` may be shorter). */
function unionBits(a: Bits, b: Bits): Bits {
  let out: Uint8Array | undefined;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (b[i] !== 1 || a[i] === 1) continue;
    out ??= a.slice();
    out[i] = 1;
  }
  return out ?? a;
}

/** The peer showed progress on its part set at `nowMs` (see partsAtMs). */
export function withPartsAt(ps: PeerRoundState, nowMs: number): PeerRoundState {
  if (ps.partsAtMs === nowMs) return ps;
  const next = copied(ps);
  next.partsAtMs = nowMs;
  return next;
}

export function applyProposalPol(
  ps: PeerRoundState,
  height: bigint,
  polRound: number,
  bits: Bits,
): PeerRoundState {
  if (ps.height !== height || ps.proposalPolRound !== polRound) return ps;
  const next = copied(ps);
  next.proposalPol = bits;
  return next;
}

/** The peer has (or was sent) the proposal of its height and round. */
export function setHasProposal(
  ps: PeerRoundState,
  height: bigint,
  round: number,
  header: PartSetHeader,
  polRound: number,
): PeerRoundState {
  if (ps.height !== height || ps.round !== round || ps.proposal) return ps;
  // Parts already announced by its NewValidBlock stay (v0.34 keeps them).
  const next = copied(ps);
  next.proposal = true;
  if (ps.proposalParts !== undefined) return next;
  next.proposalHeader = header;
  next.proposalParts = emptyBits(header.total);
  next.proposalPolRound = polRound;
  next.proposalPol = undefined;
  return next;
}

/** A catch-up: the peer's part set is the stored block's (set only when it has none). */
export function initProposalParts(ps: PeerRoundState, header: PartSetHeader): PeerRoundState {
  if (ps.proposalParts !== undefined) return ps;
  const next = copied(ps);
  next.proposalHeader = header;
  next.proposalParts = emptyBits(header.total);
  return next;
}

export function setHasPart(
  ps: PeerRoundState,
  height: bigint,
  round: number,
  index: number,
  value = true,
): PeerRoundState {
  if (ps.height !== height || ps.round !== round || ps.proposalParts === undefined) return ps;
  const parts = withBit(ps.proposalParts, index, value);
  if (parts === ps.proposalParts) return ps;
  const next = copied(ps);
  next.proposalParts = parts;
  return next;
}

type VoteSlot = "prevotes" | "precommits" | "catchupCommit" | "proposalPol" | "lastCommit";

/** Where the peer's bits for votes of (height, round, type) are kept, if anywhere. */
export function voteSlot(
  ps: PeerRoundState,
  height: bigint,
  round: number,
  type: number,
): VoteSlot | undefined {
  if (ps.height === height) {
    if (ps.round === round)
      return type === PREVOTE ? "prevotes" : type === PRECOMMIT ? "precommits" : undefined;
    if (ps.catchupCommitRound === round && type === PRECOMMIT) return "catchupCommit";
    if (ps.proposalPolRound === round && type === PREVOTE) return "proposalPol";
    return undefined;
  }
  if (ps.height === height + 1n && ps.lastCommitRound === round && type === PRECOMMIT) return "lastCommit";
  return undefined;
}

export function voteBits(ps: PeerRoundState, height: bigint, round: number, type: number): Bits | undefined {
  const slot = voteSlot(ps, height, round, type);
  return slot === undefined ? undefined : ps[slot];
}

/** Replaces the peer's bits for (height, round, type) when it has a slot for them (v0.34 Update). */
export function setVoteBits(
  ps: PeerRoundState,
  height: bigint,
  round: number,
  type: number,
  bits: Bits,
): PeerRoundState {
  const slot = voteSlot(ps, height, round, type);
  const held = slot === undefined ? undefined : ps[slot];
  if (slot === undefined || held === undefined) return ps;
  return withSlot(ps, slot, resized(bits, held.length));
}

export function setHasVote(
  ps: PeerRoundState,
  height: bigint,
  round: number,
  type: number,
  index: number,
  value = true,
): PeerRoundState {
  const slot = voteSlot(ps, height, round, type);
  const held = slot === undefined ? undefined : ps[slot];
  if (slot === undefined || held === undefined) return ps;
  const bits = withBit(held, index, value);
  return bits === held ? ps : withSlot(ps, slot, bits);
}

/** `ps` with one slot's bits replaced (a literal key: a computed key takes V8's generic path). */
function withSlot(ps: PeerRoundState, slot: VoteSlot, bits: Bits): PeerRoundState {
  const next = copied(ps);
  switch (slot) {
    case "prevotes":
      next.prevotes = bits;
      break;
    case "precommits":
      next.precommits = bits;
      break;
    case "catchupCommit":
      next.catchupCommit = bits;
      break;
    case "proposalPol":
      next.proposalPol = bits;
      break;
    case "lastCommit":
      next.lastCommit = bits;
      break;
  }
  return next;
}

/** Bit arrays for the votes of `height` (its validator count `size`), where the peer lacks them. */
export function ensureVoteBits(ps: PeerRoundState, height: bigint, size: number): PeerRoundState {
  if (ps.height === height) {
    if (ps.prevotes && ps.precommits && ps.catchupCommit && ps.proposalPol) return ps;
    const next = copied(ps);
    next.prevotes = ps.prevotes ?? emptyBits(size);
    next.precommits = ps.precommits ?? emptyBits(size);
    next.catchupCommit = ps.catchupCommit ?? emptyBits(size);
    next.proposalPol = ps.proposalPol ?? emptyBits(size);
    return next;
  }
  if (ps.height !== height + 1n || ps.lastCommit !== undefined) return ps;
  const next = copied(ps);
  next.lastCommit = emptyBits(size);
  return next;
}

/** We are catching the peer up with the commit of its height made in `round`. */
export function ensureCatchupCommitRound(
  ps: PeerRoundState,
  height: bigint,
  round: number,
  size: number,
): PeerRoundState {
  if (ps.height !== height || ps.catchupCommitRound === round) return ps;
  // (v0.34 keeps a catch-up commit once chosen: a peer has one commit to learn per height.)
  if (ps.catchupCommitRound !== -1) return ps;
  const next = copied(ps);
  next.catchupCommitRound = round;
  next.catchupCommit = round === ps.round ? (ps.precommits ?? emptyBits(size)) : emptyBits(size);
  return next;
}
