// L11 StartRound, and the propose step it leads to. v0.34 fills in: round 0 waits for
// transactions when create_empty_blocks = false or an interval is set (unless the block must be
// proposed to prove a new app hash), and the interval forces a proposal when it elapses.
import { timeoutProposeMs, waitsForTxs } from "../config.js";
import { RoundStep } from "../round-step.js";
import type { ConsensusState } from "../state.js";
import { sameBytes } from "../vote-keeper/block-key.js";
import { type Ctx, fired, publish, scheduleTimeout, setStep } from "./context.js";
import { decideProposal } from "./propose.js";

/** The first block, or one after the app hash changed, is proposed even without transactions. */
export function needsProofBlock(s: ConsensusState): boolean {
  return s.height === s.chain.initialHeight || !sameBytes(s.lastBlockAppHash, s.chain.appHash);
}

export function isOwnTurn(s: ConsensusState): boolean {
  return (
    s.ownIndex >= 0 &&
    s.ownAddress !== undefined &&
    s.proposer !== undefined &&
    sameBytes(s.proposer.address, s.ownAddress)
  );
}

// L11: StartRound(round)
export function startRound(ctx: Ctx, round: number): void {
  const s = ctx.s;
  if (round < s.round || (round === s.round && s.step !== RoundStep.NewHeight)) return;
  fired(ctx, "L11");
  const { roundValidators, proposer } = roundProposer(ctx, round);
  const fresh = round !== 0;
  ctx.s = {
    ...s,
    round,
    step: RoundStep.NewRound,
    roundValidators,
    proposer,
    // A new round starts without a proposal; round 0 keeps one that came during NewHeight.
    proposal: fresh ? undefined : s.proposal,
    proposalParts: fresh ? undefined : s.proposalParts,
    proposalBlock: fresh ? undefined : s.proposalBlock,
    proposalBlockValid: fresh ? undefined : s.proposalBlockValid,
    reapRound: -1,
    signingProposalRound: -1,
    signingProposalBlock: undefined,
  };
  publishNewRound(ctx);
  const config = ctx.s.config;
  if (
    round === 0 &&
    waitsForTxs(config) &&
    !needsProofBlock(ctx.s) &&
    ctx.s.txsAvailableHeight !== ctx.s.height
  ) {
    if (config.createEmptyBlocksIntervalMs > 0) {
      scheduleTimeout(ctx, RoundStep.NewRound, config.createEmptyBlocksIntervalMs);
    }
    return;
  }
  enterPropose(ctx);
}

/**
 * The validator set and proposer of `round` (≥ the current round), as v0.34's enterNewRound
 * reaches them: the priorities advanced by the rounds skipped, from where they are.
 */
export function roundProposer(ctx: Ctx, round: number): Pick<ConsensusState, "roundValidators" | "proposer"> {
  const s = ctx.s;
  const roundValidators =
    s.roundValidators !== undefined && round > s.round
      ? ctx.rules.incrementProposerPriority(s.roundValidators, round - s.round)
      : s.roundValidators;
  const proposer = roundValidators === undefined ? undefined : ctx.rules.proposerOf(roundValidators);
  return { roundValidators, proposer };
}

/** The NewRound event of the round the state is in. */
export function publishNewRound(ctx: Ctx): void {
  const s = ctx.s;
  publish(ctx, "NewRound", {
    kind: "NewRound",
    height: s.height,
    round: s.round,
    step: "RoundStepNewRound",
    proposer: { address: s.proposer?.address ?? new Uint8Array(0), index: proposerIndex(s) },
  });
}

function proposerIndex(s: ConsensusState): number {
  const proposer = s.proposer;
  if (proposer === undefined) return -1;
  return (s.chain.validators?.validators ?? []).findIndex((v) => sameBytes(v.address, proposer.address));
}

/** The propose step of the current round: the timeout always, our proposal when it is our turn. */
export function enterPropose(ctx: Ctx): void {
  setStep(ctx, RoundStep.Propose);
  scheduleTimeout(ctx, RoundStep.Propose, timeoutProposeMs(ctx.s.config, ctx.s.round));
  if (isOwnTurn(ctx.s)) decideProposal(ctx);
}

/** The mempool has transactions: a round 0 waiting for them proposes now. */
export function onTxsAvailable(ctx: Ctx, height: bigint): void {
  if (height !== ctx.s.height && height !== ctx.s.height + 1n) return;
  if (height > ctx.s.txsAvailableHeight) ctx.s = { ...ctx.s, txsAvailableHeight: height };
  if (height !== ctx.s.height) return;
  if (ctx.s.round === 0 && ctx.s.step === RoundStep.NewRound) enterPropose(ctx);
}
