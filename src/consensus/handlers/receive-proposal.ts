// A proposal and its block parts arriving from peers, and the validity answer for the assembled
// block. Peer data that cannot be right is dropped with a PeerMisbehaved effect; data that is
// merely late or early is dropped silently.

import { TypesError } from "../../types/errors.js";
import {
  addPart,
  BLOCK_PART_SIZE_BYTES,
  emptyPartSet,
  MAX_BLOCK_PARTS,
  partSetIsComplete,
} from "../../types/part-set.js";
import { partSetBlock } from "../../types/part-set-block.js";
import type { Part, Proposal } from "../../wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../wire/generated/tendermint/types/types.js";
import type { PeerId } from "../input.js";
import { blockTimeProblem } from "../proposal-block.js";
import { roundStepName } from "../round-step.js";
import type { HeldBlock } from "../state.js";
import { blockKeyOf, sameBytes } from "../vote-keeper/block-key.js";
import { type Ctx, emit, publish } from "./context.js";

function misbehaved(ctx: Ctx, peer: PeerId, reason: string): void {
  emit(ctx, { type: "PeerMisbehaved", peer, reason });
}

function heldWithKey(ctx: Ctx, key: string): HeldBlock | undefined {
  const { lockedBlock, validBlock } = ctx.s;
  if (lockedBlock !== undefined && blockKeyOf(lockedBlock.blockId) === key) return lockedBlock;
  if (validBlock !== undefined && blockKeyOf(validBlock.blockId) === key) return validBlock;
  return undefined;
}

function maxBlockBytes(ctx: Ctx): number {
  return Number(ctx.s.chain.consensusParams.block.maxBytes);
}

/**
 * Shape problems of a proposal, named; undefined when it is well formed (Proposal.ValidateBasic,
 * and v0.34's part count bound: no more parts than a block of `maxBytes` can fill).
 */
function proposalProblem(proposal: Proposal, maxBytes: number): string | undefined {
  if (proposal.type !== SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL)
    return `proposal type ${proposal.type} is not 32`;
  if (proposal.polRound < -1 || proposal.polRound >= proposal.round) {
    return `proposal polRound ${proposal.polRound} is not in [-1, ${proposal.round})`;
  }
  const psh = proposal.blockId.partSetHeader;
  if (
    proposal.blockId.hash.length !== 32 ||
    psh.hash.length !== 32 ||
    psh.total < 1 ||
    psh.total > MAX_BLOCK_PARTS
  ) {
    return "proposal blockId is not a complete BlockID";
  }
  const maxParts = maxBytes > 0 ? Math.floor((maxBytes - 1) / BLOCK_PART_SIZE_BYTES) + 1 : MAX_BLOCK_PARTS;
  if (psh.total > maxParts) {
    return `proposal names ${psh.total} block parts, more than max_bytes ${maxBytes} allows (${maxParts})`;
  }
  return undefined;
}

export function onProposalReceived(ctx: Ctx, proposal: Proposal, from: PeerId): void {
  const s = ctx.s;
  // v0.34 keeps only the current round's proposal; others are late or early.
  if (proposal.height !== s.height || proposal.round !== s.round || s.proposal !== undefined) return;
  const problem = proposalProblem(proposal, maxBlockBytes(ctx));
  if (problem !== undefined) {
    misbehaved(ctx, from, problem);
    return;
  }
  const key = blockKeyOf(proposal.blockId);
  const known = heldWithKey(ctx, key);
  if (known !== undefined) {
    ctx.s = { ...s, proposal, proposalParts: known.parts, proposalBlock: known, proposalBlockValid: true };
    publishComplete(ctx, known);
    return;
  }
  // Parts already being collected stay (as in v0.34): they are the decided block's in the commit
  // step, or the block a polka of this round named; either matters more than the proposal's.
  if (s.proposalParts !== undefined) {
    ctx.s = { ...s, proposal };
    return;
  }
  ctx.s = {
    ...s,
    proposal,
    proposalParts: emptyPartSet(proposal.blockId.partSetHeader, maxBlockBytes(ctx)),
    proposalBlock: undefined,
    proposalBlockValid: undefined,
  };
}

export function onBlockPartReceived(ctx: Ctx, height: bigint, part: Part, from: PeerId): void {
  const s = ctx.s;
  // Parts are checked against the part set being collected, whatever round they were sent in:
  // in the commit step the block may be from an earlier round (v0.34 does the same).
  if (height !== s.height || s.proposalParts === undefined || s.proposalBlock !== undefined) return;
  // Decoded wire data: Part.decode leaves a missing proof undefined.
  if ((part.proof as Part["proof"] | undefined) === undefined || !(part.bytes instanceof Uint8Array)) {
    misbehaved(ctx, from, `block part ${part.index} has no proof`);
    return;
  }
  let parts = s.proposalParts;
  try {
    parts = addPart(parts, part);
  } catch (error) {
    if (!(error instanceof TypesError)) throw error;
    if (error.code !== "TYPES_PART_DUPLICATE") misbehaved(ctx, from, error.message);
    return;
  }
  ctx.s = { ...s, proposalParts: parts };
  if (!partSetIsComplete(parts)) return;

  let held: HeldBlock;
  try {
    // Decoded and hashed once per part set in the process (every receiver assembles the same parts).
    const { block, hash } = partSetBlock(parts, maxBlockBytes(ctx));
    held = { block, blockId: { hash, partSetHeader: parts.header }, parts };
  } catch {
    // Parts proven against the signed header that do not decode: the proposer sent garbage.
    ctx.s = { ...ctx.s, proposalBlockValid: false };
    return;
  }
  const proposal = ctx.s.proposal;
  const matchesProposal = proposal === undefined || sameBytes(proposal.blockId.hash, held.blockId.hash);
  const known = heldWithKey(ctx, blockKeyOf(held.blockId)) !== undefined;
  // BFT time is decided from the chain state alone: a wrong header time makes the block invalid
  // without asking the validation handler (which checks hashes and signatures, not the time).
  const badTime = matchesProposal && !known && blockTimeProblem(s.chain, held.block) !== undefined;
  ctx.s = {
    ...ctx.s,
    proposalBlock: held,
    proposalBlockValid: !matchesProposal || badTime ? false : known ? true : undefined,
  };
  publishComplete(ctx, held);
  if (matchesProposal && !known && !badTime) {
    emit(ctx, {
      type: "ValidateBlock",
      height: s.height,
      round: s.round,
      blockId: held.blockId,
      block: held.block,
    });
  }
}

function publishComplete(ctx: Ctx, held: HeldBlock): void {
  const s = ctx.s;
  publish(ctx, "CompleteProposal", {
    kind: "CompleteProposal",
    height: s.height,
    round: s.round,
    step: roundStepName(s.step),
    blockId: held.blockId,
  });
}

export function onBlockValidated(
  ctx: Ctx,
  height: bigint,
  hash: Uint8Array,
  error: string | undefined,
): void {
  const s = ctx.s;
  if (height !== s.height || s.proposalBlock === undefined || !sameBytes(s.proposalBlock.blockId.hash, hash))
    return;
  if (s.proposalBlockValid !== undefined) return;
  ctx.s = { ...s, proposalBlockValid: error === undefined };
}
