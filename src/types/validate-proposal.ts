// Validation of a proposal received from a peer (Proposal.ValidateBasic, plus the POL round rule
// consensus applies on receipt).
import { type Proposal, SignedMsgType } from "../wire/generated/tendermint/types/types.js";
import { validateCompleteBlockId } from "./validate-block-id.js";
import { checkHeight, checkRound, checkSignature, checkTimestamp, fieldError } from "./validate-fields.js";

export function validateProposal(proposal: Proposal, field = "proposal"): void {
  if (proposal.type !== SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL)
    throw fieldError(`${field}.type`, `must be proposal (32), got ${proposal.type}`);
  checkHeight(`${field}.height`, proposal.height);
  checkRound(`${field}.round`, proposal.round);
  if (!Number.isInteger(proposal.polRound) || proposal.polRound < -1)
    throw fieldError(`${field}.polRound`, `must be -1 or a round, got ${proposal.polRound}`);
  if (proposal.polRound >= proposal.round)
    throw fieldError(
      `${field}.polRound`,
      `must be below the round ${proposal.round}, got ${proposal.polRound}`,
    );
  validateCompleteBlockId(proposal.blockId, `${field}.blockId`);
  checkTimestamp(`${field}.timestamp`, proposal.timestamp);
  checkSignature(`${field}.signature`, proposal.signature);
}
