// The body of `rxbft node` once everything is prepared. The consensus issue replaces this body
// with the real node (streams/node.ts): start it, wait for SIGINT/SIGTERM, stop it, and return
// the exit code. Until then it says so plainly and exits non-zero.
import { CliError } from "./errors.js";
import type { PreparedNode } from "./prepare-node.js";

/** Runs the node until it stops; resolves to the process exit code. */
export type RunNode = (prepared: PreparedNode) => Promise<number>;

export const runNode: RunNode = async (prepared) => {
  prepared.logger.info("configuration, genesis and keys are valid", {
    chain_id: prepared.genesis.chainId,
    node_id: prepared.nodeId,
    validators: prepared.genesis.validators.length,
    proxy_app: prepared.config.proxy_app,
    rpc_laddr: prepared.config.rpc.laddr,
    p2p_laddr: prepared.config.p2p.laddr,
    create_empty_blocks: prepared.config.consensus.create_empty_blocks,
    pex: prepared.config.p2p.pex,
  });
  throw new CliError(
    "CLI_NODE_UNAVAILABLE",
    "running consensus arrives with the consensus issue; this build checks the home and exits (config, genesis and keys are valid)",
  );
};
