// The rules of Algorithm 1 of "The latest gossip on BFT consensus" (Buchman, Kwon, Milosevic,
// 2018) as the reducer names them when it reports which fired (a traced reducer, reducer.ts):
// the line each starts at, and what it says. Read by `rxbft replay --console` and `--trace` logs.

export type RuleId =
  | "L11"
  | "L14"
  | "L22"
  | "L28"
  | "L34"
  | "L36"
  | "L44"
  | "L47"
  | "L49"
  | "L49-finalize"
  | "L55"
  | "L57"
  | "L61"
  | "L65"
  | "v034-polka-unknown-block";

export const PAPER_LINES: Readonly<Record<RuleId, string>> = {
  L11: "StartRound(round): round_p ← round, step_p ← propose",
  L14: "if proposer(h_p, round_p) = p: broadcast ⟨PROPOSAL, h_p, round_p, proposal, validRound_p⟩",
  L22: "upon ⟨PROPOSAL, h_p, round_p, v, −1⟩ from proposer while step_p = propose: prevote id(v) or nil",
  L28: "upon ⟨PROPOSAL, h_p, round_p, v, vr⟩ and 2f+1 ⟨PREVOTE, h_p, vr, id(v)⟩ while step_p = propose ∧ vr < round_p: prevote id(v) or nil",
  L34: "upon 2f+1 ⟨PREVOTE, h_p, round_p, ∗⟩ while step_p = prevote for the first time: schedule OnTimeoutPrevote",
  L36: "upon ⟨PROPOSAL, h_p, round_p, v, ∗⟩ and 2f+1 ⟨PREVOTE, h_p, round_p, id(v)⟩ while valid(v) ∧ step_p ≥ prevote for the first time: lock, precommit id(v), validValue ← v",
  L44: "upon 2f+1 ⟨PREVOTE, h_p, round_p, nil⟩ while step_p = prevote: precommit nil",
  L47: "upon 2f+1 ⟨PRECOMMIT, h_p, round_p, ∗⟩ for the first time: schedule OnTimeoutPrecommit",
  L49: "upon ⟨PROPOSAL, h_p, r, v, ∗⟩ and 2f+1 ⟨PRECOMMIT, h_p, r, id(v)⟩ while decision_p[h_p] = nil: decide v",
  "L49-finalize": "L49 with the decided block complete: commit it, h_p ← h_p + 1 once executed",
  L55: "upon f+1 ⟨∗, h_p, round, ∗, ∗⟩ with round > round_p: StartRound(round)",
  L57: "OnTimeoutPropose(h_p, round_p) while step_p = propose: prevote nil",
  L61: "OnTimeoutPrevote(h_p, round_p) while step_p = prevote: precommit nil",
  L65: "OnTimeoutPrecommit(h_p, round_p): StartRound(round_p + 1)",
  "v034-polka-unknown-block": "(v0.34) a polka for a block we do not hold: collect its parts",
};

/** "L36: upon …" */
export function describeRule(id: RuleId): string {
  return `${id}: ${PAPER_LINES[id]}`;
}
