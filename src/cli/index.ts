// The logic behind the oclif commands (src/commands holds only thin classes): the base command
// and its error policy, init, testnet, unsafe_reset_all. Preparing and running a node is
// streams/boot/prepare-home.ts and streams/run-node.ts.
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
export { randomChainId } from "./random-chain-id.js";
export { type ResetOptions, unsafeResetAll } from "./reset-home.js";
export {
  createTestnet,
  MAX_TESTNET_NODES,
  PORT_STRIDE,
  type TestnetNode,
  type TestnetOptions,
  type TestnetReport,
} from "./testnet.js";
