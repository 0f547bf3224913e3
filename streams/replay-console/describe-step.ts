// One line per input and per effect, and the state diff of a step, as the replay console prints
// them: short hashes (first 6 bytes, upper-case hex), validators by index and short address.
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { roundStepName } from "../../src/consensus/round-step.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";

export const shortHex = (b: Uint8Array | undefined) =>
  b === undefined || b.length === 0 ? "nil" : Buffer.from(b.subarray(0, 6)).toString("hex").toUpperCase();
const step = (s: number) => roundStepName(s).replace("RoundStep", "");

export function timeText(t: { seconds: bigint; nanos: number } | undefined): string {
  if (!t) return "-";
  const ms = Number(t.seconds) * 1000 + Math.floor(t.nanos / 1e6);
  return new Date(ms).toISOString().slice(11, 23);
}

function voteText(v: Vote): string {
  const kind = v.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevote" : "precommit";
  return `${kind} h${v.height} r${v.round} by #${v.validatorIndex} ${shortHex(v.validatorAddress)} for ${shortHex(v.blockId?.hash)}`;
}

export function describeInput(input: ConsensusInput): string {
  switch (input.type) {
    case "ConsensusStarted":
      return `ConsensusStarted at chain height ${input.chainState.lastBlockHeight}`;
    case "ConsensusResumed":
      return "ConsensusResumed";
    case "BlockExecuted":
      return `BlockExecuted h${input.height} app hash ${shortHex(input.chainState.appHash)}`;
    case "ProposalReceived":
    case "ProposalSigned": {
      const p = input.proposal;
      const from = input.type === "ProposalReceived" ? ` from ${input.from || "self"}` : "";
      return `${input.type} h${p.height} r${p.round} pol ${p.polRound} block ${shortHex(p.blockId?.hash)}${from}`;
    }
    case "BlockPartReceived":
      return `BlockPartReceived h${input.height} r${input.round} part ${input.part.index} from ${input.from || "self"}`;
    case "VoteReceived":
      return `VoteReceived ${voteText(input.vote)} from ${input.from || "self"}`;
    case "VoteSigned":
      return `VoteSigned ${voteText(input.vote)}`;
    case "TimeoutElapsed":
      return `TimeoutElapsed h${input.height} r${input.round} ${step(input.step)}`;
    case "TxsAvailable":
      return `TxsAvailable h${input.height}`;
    case "ProposalBlockReaped":
      return `ProposalBlockReaped h${input.height} r${input.round} txs ${input.txs.length} evidence ${input.evidence.length}`;
    case "SignFailed":
      return `SignFailed ${input.what} h${input.height} r${input.round}: ${input.reason}`;
    case "BlockValidated":
      return `BlockValidated h${input.height} block ${shortHex(input.blockHash)} ${input.error ? `invalid: ${input.error}` : "valid"}`;
  }
}

export function describeEffect(effect: ConsensusEffect): string {
  switch (effect.type) {
    case "ScheduleTimeout":
      return `ScheduleTimeout h${effect.height} r${effect.round} ${step(effect.step)} in ${effect.durationMs} ms`;
    case "ReapProposalBlock":
      return `ReapProposalBlock h${effect.height} r${effect.round}`;
    case "SignProposal":
    case "BroadcastProposal":
      return `${effect.type} h${effect.proposal.height} r${effect.proposal.round} block ${shortHex(effect.proposal.blockId?.hash)}`;
    case "SignVote":
    case "BroadcastVote":
      return `${effect.type} ${voteText(effect.vote)}`;
    case "BroadcastBlockPart":
      return `BroadcastBlockPart h${effect.height} r${effect.round} part ${effect.part.index}`;
    case "ValidateBlock":
    case "CommitBlock":
      return `${effect.type} h${effect.height} r${effect.round} block ${shortHex(effect.blockId.hash)} txs ${effect.block.data.txs.length}`;
    case "PublishEvent":
      return `PublishEvent ${effect.name}`;
    case "PeerMisbehaved":
      return `PeerMisbehaved ${effect.peer}: ${effect.reason}`;
    case "Halt":
      return `Halt: ${effect.reason}`;
    default:
      return effect.type;
  }
}

/** The fields of the consensus state a person follows, as text (compared to make the diff). */
export function stateSummary(s: ConsensusState): Record<string, string> {
  const votes = (kind: "prevotes" | "precommits") =>
    s.votes.rounds
      .map((r, i) => {
        const t = r?.[kind];
        if (!t) return undefined;
        const marks = t.votes
          .map((v) => (v === undefined ? "." : v.blockId?.hash.length ? "B" : "n"))
          .join("");
        return `r${i}:${marks}`;
      })
      .filter((x) => x !== undefined)
      .join(" ");
  return {
    started: String(s.started),
    halted: s.halted ?? "no",
    height: String(s.height),
    round: String(s.round),
    step: step(s.step),
    proposer: s.proposer ? shortHex(s.proposer.address) : "-",
    proposal: s.proposal
      ? `r${s.proposal.round} pol ${s.proposal.polRound} block ${shortHex(s.proposal.blockId?.hash)}`
      : "none",
    proposalParts: s.proposalParts ? `${s.proposalParts.count}/${s.proposalParts.header.total}` : "none",
    proposalBlock: s.proposalBlock
      ? `${shortHex(s.proposalBlock.blockId.hash)}${s.proposalBlockValid === undefined ? "" : s.proposalBlockValid ? " valid" : " invalid"}`
      : "none",
    locked: s.lockedBlock
      ? `r${s.lockedRound} ${shortHex(s.lockedBlock.blockId.hash)}`
      : `r${s.lockedRound} nil`,
    valid: s.validBlock ? `r${s.validRound} ${shortHex(s.validBlock.blockId.hash)}` : `r${s.validRound} nil`,
    prevotes: votes("prevotes"),
    precommits: votes("precommits"),
    committed: s.committed ? `yes (round ${s.commitRound})` : "no",
  };
}

/** `field: before → after` for every field the step changed. */
export function stateDiff(before: ConsensusState, after: ConsensusState): string[] {
  const a = stateSummary(before);
  const b = stateSummary(after);
  const out: string[] = [];
  for (const key of Object.keys(b)) {
    if (a[key] !== b[key]) out.push(`${key}: ${a[key] || "-"} → ${b[key] || "-"}`);
  }
  return out;
}
