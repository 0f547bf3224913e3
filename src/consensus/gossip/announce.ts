// What we tell every peer when our consensus state changes (v0.34's broadcasts on the State
// channel): NewRoundStep on each step change, NewValidBlock when we learn the block a round's
// +2/3 named (or enter the commit step with it), HasVote for each vote we add. Derived by comparing
// the state before and after one transition: O(validators) per changed vote tally.
import type { Timestamp } from "../../wire/generated/google/protobuf/timestamp.js";
import { SignedMsgType } from "../../wire/generated/tendermint/types/types.js";
import { RoundStep } from "../round-step.js";
import type { ConsensusState } from "../state.js";
import type { VoteTally } from "../vote-keeper/vote-tally.js";
import { bitsToWire } from "./bit-array.js";
import type { ConsensusMessage } from "./message.js";
import { isOwnTurn } from "./our-view.js";

const timestampMs = (t: Timestamp) => Number(t.seconds) * 1000 + Math.floor(t.nanos / 1_000_000);

/** Our NewRoundStep as of `nowMs`. */
export function newRoundStepOf(our: ConsensusState, nowMs: number): ConsensusMessage {
  const since = Math.max(0, Math.floor((nowMs - timestampMs(our.startTime)) / 1000));
  return {
    $case: "newRoundStep",
    newRoundStep: {
      height: our.height,
      round: our.round,
      step: our.step,
      secondsSinceStartTime: BigInt(since),
      lastCommitRound: our.lastCommitRound,
    },
  };
}

function newValidBlockOf(our: ConsensusState): ConsensusMessage | undefined {
  const parts = our.proposalParts;
  if (parts === undefined) return undefined;
  const bits = new Uint8Array(parts.header.total);
  for (let i = 0; i < parts.parts.length; i++) if (parts.parts[i] !== undefined) bits[i] = 1;
  return {
    $case: "newValidBlock",
    newValidBlock: {
      height: our.height,
      round: our.round,
      blockPartSetHeader: parts.header,
      blockParts: bitsToWire(bits),
      isCommit: our.step === RoundStep.Commit,
    },
  };
}

function addedVotes(
  before: VoteTally | undefined,
  after: VoteTally | undefined,
  height: bigint,
  round: number,
  type: SignedMsgType,
  out: ConsensusMessage[],
): void {
  if (after === undefined || after === before) return;
  for (let i = 0; i < after.votes.length; i++) {
    if (after.votes[i] !== undefined && before?.votes[i] === undefined)
      out.push({ $case: "hasVote", hasVote: { height, round, type, index: i } });
  }
}

/** Our proposal's part set gained parts in one transition (a new set with none yet is not). */
function partsAdded(before: ConsensusState, after: ConsensusState): boolean {
  const a = before.proposalParts;
  const b = after.proposalParts;
  if (b === undefined || a === b || b.count === 0) return false;
  return a === undefined || a.header !== b.header || b.count > a.count;
}

/** The broadcasts one transition of ours calls for (none before consensus started). */
export function announcements(
  before: ConsensusState | undefined,
  after: ConsensusState,
  nowMs: number,
): ConsensusMessage[] {
  if (!after.started) return [];
  const out: ConsensusMessage[] = [];
  const moved =
    before === undefined ||
    !before.started ||
    before.height !== after.height ||
    before.round !== after.round ||
    before.step !== after.step;
  if (moved) out.push(newRoundStepOf(after, nowMs));
  const sameHeight = before?.started && before.height === after.height;
  // The valid block: a new +2/3 round for a block, or the commit step entered.
  const enteredCommit = after.step === RoundStep.Commit && (before?.step !== RoundStep.Commit || !sameHeight);
  const newValid = sameHeight && after.validRound > before.validRound && after.proposalParts !== undefined;
  if (enteredCommit || newValid) {
    const nvb = newValidBlockOf(after);
    if (nvb !== undefined) out.push(nvb);
  } else if (sameHeight && before.round === after.round && partsAdded(before, after) && !isOwnTurn(after)) {
    // A part of another validator's block added: the same NewValidBlock as a hint of which parts
    // we hold, so that relays send us only what the proposer does not (gossip-data.ts). A v0.34
    // peer takes it as it takes any NewValidBlock of our round: our part bits, replaced.
    const nvb = newValidBlockOf(after);
    if (nvb !== undefined) out.push(nvb);
  }
  if (sameHeight && before.votes !== after.votes) {
    const rounds = after.votes.rounds;
    for (let r = 0; r < rounds.length; r++) {
      const a = before.votes.rounds[r];
      const b = rounds[r];
      if (b === undefined || a === b) continue;
      addedVotes(a?.prevotes, b.prevotes, after.height, r, SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, out);
      addedVotes(a?.precommits, b.precommits, after.height, r, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT, out);
    }
  }
  return out;
}
