// The logic behind the oclif commands (src/commands holds only thin classes): the base command
// and its error policy, init, testnet, unsafe_reset_all, and preparing and running a node.
// `runNode` (run-node.ts) is the seam where the node itself plugs in.
export { RxbftCommand } from "./base-command.js";
export { CliError, type CliErrorCode } from "./errors.js";
export {
  checkChainId,
  INIT_VALIDATOR_POWER,
  type InitOptions,
  type InitReport,
  initHome,
  singleValidatorGenesis,
} from "./init-home.js";
export { type PreparedNode, type PrepareNodeOptions, prepareNode } from "./prepare-node.js";
export { randomChainId } from "./random-chain-id.js";
export { type ResetOptions, unsafeResetAll } from "./reset-home.js";
export { type RunNode, runNode } from "./run-node.js";
export {
  createTestnet,
  MAX_TESTNET_NODES,
  PORT_STRIDE,
  type TestnetNode,
  type TestnetOptions,
  type TestnetReport,
} from "./testnet.js";
