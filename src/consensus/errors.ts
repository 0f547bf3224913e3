// Errors of the consensus module. The reducer never throws on outside data (bad peer data is an
// ignored input); these are for broken invariants of our own and for bad configuration.
import { CodedError } from "../coded-error.js";

export type ConsensusErrorCode =
  | "CONSENSUS_BAD_CONFIG"
  | "CONSENSUS_BAD_CHAIN_STATE"
  | "CONSENSUS_INVARIANT"
  | "CONSENSUS_BAD_BLOCK";

export class ConsensusError extends CodedError<ConsensusErrorCode> {
  constructor(code: ConsensusErrorCode, message: string) {
    super(code, message);
  }
}
