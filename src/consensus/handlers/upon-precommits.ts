// Upon-rules on precommits: L47 (+2/3 precommits for anything in the current round: start
// timeoutPrecommit) and L49 (+2/3 precommits for a block in any round: decide). v0.34 fills in
// the commit step: the block may still be missing parts; the decision waits for all of them, and
// CommitBlock goes out once, with the seen commit.
import { timeoutPrecommitMs } from "../config.js";
import { RoundStep } from "../round-step.js";
import { blockKeyOf, sameBytes } from "../vote-keeper/block-key.js";
import { commitFromPrecommits } from "../vote-keeper/commit-from-votes.js";
import { decision, precommitAny, precommitsForBlock } from "../vote-keeper/thresholds.js";
import { type Ctx, emit, publish, roundStateData, scheduleTimeout, setStep } from "./context.js";
import { partSetFor } from "./part-set-for.js";
import { publishNewRound, roundProposer } from "./start-round.js";

// L47: upon 2f+1 ⟨PRECOMMIT, h, r, ∗⟩ for the first time
export function uponPrecommitAny(ctx: Ctx): boolean {
  const s = ctx.s;
  // Not in NewHeight: its timer is timeout_commit, which must not be replaced.
  if (s.step === RoundStep.Commit || s.step === RoundStep.NewHeight || s.precommitWaitRound === s.round)
    return false;
  if (!precommitAny(s.votes, s.round)) return false;
  ctx.s = { ...s, precommitWaitRound: s.round };
  scheduleTimeout(ctx, RoundStep.PrecommitWait, timeoutPrecommitMs(s.config, s.round));
  if (s.step === RoundStep.Precommit) setStep(ctx, RoundStep.PrecommitWait);
  return true;
}

// L49: upon ⟨PROPOSAL, h, r, v, ∗⟩ from proposer(h, r) and 2f+1 ⟨PRECOMMIT, h, r, id(v)⟩
//      while decision_p[h] = nil
export function uponPrecommitsForBlock(ctx: Ctx): boolean {
  const s = ctx.s;
  if (s.step === RoundStep.Commit) return false;
  const decisionOf = decision(s.votes);
  if (decisionOf === undefined) return false;
  const { round, block: decided } = decisionOf;
  // v0.34 enterCommit: the locked block, or the proposal block, if it is the decided one;
  // else collect the decided block's parts.
  let { proposalParts, proposalBlock, proposalBlockValid } = s;
  let fetching = false;
  if (s.lockedBlock !== undefined && blockKeyOf(s.lockedBlock.blockId) === decided.key) {
    proposalBlock = s.lockedBlock;
    proposalParts = s.lockedBlock.parts;
    proposalBlockValid = true;
  } else if (proposalBlock === undefined || blockKeyOf(proposalBlock.blockId) !== decided.key) {
    const header = decided.blockId.partSetHeader;
    const collecting =
      proposalParts !== undefined &&
      proposalParts.header.total === header.total &&
      sameBytes(proposalParts.header.hash, header.hash);
    if (!collecting) {
      proposalParts = partSetFor(header, s.chain.consensusParams.block.maxBytes);
      if (proposalParts === undefined) {
        // +2/3 of the power precommitted a block that cannot exist: more than 1/3 is faulty.
        const reason = `+2/3 precommitted a block with an impossible part-set header at height ${s.height} round ${round}`;
        ctx.s = { ...s, halted: reason };
        emit(ctx, { type: "Halt", reason });
        return true;
      }
      proposalBlock = undefined;
      proposalBlockValid = undefined;
      fetching = true;
    }
  }
  // A decision in a later round: v0.34 enters that round first (its proposer; no proposal yet).
  const later = round > s.round;
  const entered = later ? { ...roundProposer(ctx, round), proposal: undefined } : {};
  ctx.s = {
    ...s,
    ...entered,
    round: Math.max(s.round, round),
    commitRound: round,
    commitTime: ctx.now,
    proposalParts,
    proposalBlock,
    proposalBlockValid,
  };
  if (later) publishNewRound(ctx);
  setStep(ctx, RoundStep.Commit);
  if (fetching) publish(ctx, "ValidBlock", roundStateData(ctx.s));
  return true;
}

/** In the commit step with every part of the decided block: save and execute it (once). */
export function finalizeCommit(ctx: Ctx): boolean {
  const s = ctx.s;
  if (s.step !== RoundStep.Commit || s.committed || s.halted !== undefined) return false;
  const decided = precommitsForBlock(s.votes, s.commitRound);
  const held = s.proposalBlock;
  if (decided === undefined || held === undefined || blockKeyOf(held.blockId) !== decided.key) return false;
  const seenCommit = commitFromPrecommits(s.votes, s.commitRound, held.blockId);
  ctx.s = { ...s, committed: true, seenCommit };
  emit(ctx, {
    type: "CommitBlock",
    height: s.height,
    round: s.commitRound,
    blockId: held.blockId,
    block: held.block,
    partSetHeader: held.parts.header,
    parts: held.parts.parts.map((p) => p!),
    seenCommit,
  });
  return true;
}
