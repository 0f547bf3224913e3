// The state module owns the rules that take the chain state from one block to the next: the
// genesis state and InitChain's effect on it, the BeginBlock request of a block, the next state
// after a block (validator updates at H+2, params at H+1, last results hash, app hash), and the
// validity of a proposed block. Pure: the executor that runs a block's ABCI calls on the app is
// src/abci/execute-block.ts.

export { beginBlockRequest, byzantineValidators, lastCommitInfo } from "./begin-block-request.js";
export { StateError, type StateErrorCode } from "./errors.js";
export {
  applyInitChain,
  genesisValidatorUpdates,
  STATE_SOFTWARE_VERSION,
  stateFromGenesis,
} from "./genesis-state.js";
export { type BlockResults, nextState, withAppHash } from "./next-state.js";
export {
  type ProposalBlockPorts,
  proposalBlockProblem,
  proposalHeaderProblem,
} from "./validate-proposal-block.js";
export { toValidatorChanges, validateValidatorUpdates } from "./validator-updates.js";
