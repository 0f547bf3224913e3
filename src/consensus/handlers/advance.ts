// After every input, the upon-rules are evaluated against the new state until none applies: the
// rules are conditions on what has been received ("upon ... while ..."), so they fire however the
// inputs that satisfy them were ordered. Each rule changes the state so it cannot fire twice.
import type { RuleId } from "../paper-lines.js";
import type { Ctx } from "./context.js";
import { uponLaterRound } from "./upon-later-round.js";
import { finalizeCommit, uponPrecommitAny, uponPrecommitsForBlock } from "./upon-precommits.js";
import {
  uponPolkaAny,
  uponPolkaForNil,
  uponPolkaForProposal,
  uponPolkaForUnknownBlock,
} from "./upon-prevotes.js";
import { uponProposal } from "./upon-proposal.js";

/** In priority order: deciding first, then catching up to a later round, then the round's own steps. */
const RULES: readonly (readonly [(ctx: Ctx) => boolean, RuleId])[] = [
  [uponPrecommitsForBlock, "L49"],
  [finalizeCommit, "L49-finalize"],
  [uponLaterRound, "L55"],
  [uponProposal, "L22"], // L22 or L28: the proposal's POL round tells which (traced below)
  [uponPolkaForProposal, "L36"],
  [uponPolkaForNil, "L44"],
  [uponPolkaAny, "L34"],
  [uponPrecommitAny, "L47"],
  [uponPolkaForUnknownBlock, "v034-polka-unknown-block"],
];

/** Far more passes than any input can need (each pass fires one rule that cannot fire again). */
const MAX_PASSES = 64;

export function advance(ctx: Ctx): void {
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    if (ctx.s.halted !== undefined || !ctx.s.started) return;
    let fired = false;
    for (const [rule, id] of RULES) {
      if (rule(ctx)) {
        if (ctx.fired) ctx.fired.push(id === "L22" && (ctx.s.proposal?.polRound ?? -1) >= 0 ? "L28" : id);
        fired = true;
        break;
      }
    }
    if (!fired) return;
  }
}
