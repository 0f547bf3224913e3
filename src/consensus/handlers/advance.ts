// After every input, the upon-rules are evaluated against the new state until none applies: the
// rules are conditions on what has been received ("upon ... while ..."), so they fire however the
// inputs that satisfy them were ordered. Each rule changes the state so it cannot fire twice.
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
const RULES: readonly ((ctx: Ctx) => boolean)[] = [
  uponPrecommitsForBlock, // L49
  finalizeCommit, // L49 (block complete)
  uponLaterRound, // L55
  uponProposal, // L22, L28
  uponPolkaForProposal, // L36
  uponPolkaForNil, // L44
  uponPolkaAny, // L34
  uponPrecommitAny, // L47
  uponPolkaForUnknownBlock, // v0.34: fetch the polka's block
];

/** Far more passes than any input can need (each pass fires one rule that cannot fire again). */
const MAX_PASSES = 64;

export function advance(ctx: Ctx): void {
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    if (ctx.s.halted !== undefined || !ctx.s.started) return;
    let fired = false;
    for (const rule of RULES) {
      if (rule(ctx)) {
        fired = true;
        break;
      }
    }
    if (!fired) return;
  }
}
