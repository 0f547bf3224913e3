// The node's remote signer (priv_validator_laddr): listen, wait for a signer to dial in and tell
// its key, check that key against the validator set, and hand consensus a signer with the same
// port as the file signer (signVote, signProposal). The signing handler, the log sync before each
// signature and the halt on a failure are untouched: only what is behind the port changes.
import type { Logger } from "../src/logger/index.js";
import { RemoteSignerError } from "../src/privval/remote/errors.js";
import { RemoteSignerClient } from "../src/privval/remote/signer-client.js";
import type { State as ChainState } from "../src/wire/generated/tendermint/state/types.js";
import type { ConsensusSigner } from "./effects/signing.js";

/** What the node needs of its signer, file or remote. */
export interface NodeSigner extends ConsensusSigner {
  readonly address: Uint8Array;
  readonly publicKey: Uint8Array;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

/**
 * Listens on `laddr` and resolves once a signer has dialled in with a usable key; the node waits
 * here (saying what for and where every few seconds) until then, or until `signal` aborts. At
 * the chain's first height a key genesis does not list is refused: that signer holds the wrong key.
 * Later, a key outside the current set only warns (a validator may be joining).
 */
export async function connectRemoteSigner(
  laddr: string,
  chain: ChainState,
  logger: Logger,
  onCleanup: (close: () => Promise<unknown> | unknown) => void,
  signal?: AbortSignal,
): Promise<NodeSigner> {
  const client = await RemoteSignerClient.listen({ laddr, chainId: chain.chainId, logger });
  onCleanup(() => client.close());
  logger.info("waiting for the remote signer to dial in before consensus starts", {
    address: client.listenAddress,
    chain_id: chain.chainId,
  });
  const publicKey = await client.waitForPublicKey(signal);
  const address = client.address;
  const validators = chain.validators?.validators ?? [];
  const inSet = validators.some((v) => Buffer.from(v.address).equals(Buffer.from(address)));
  if (!inSet) {
    const listed = validators.map((v) => hex(v.address)).join(", ") || "none";
    const what =
      `the remote signer at ${laddr} answers with public key ${hex(publicKey)} (address ${hex(address)}), ` +
      `which is not a validator of chain ${chain.chainId} at height ${chain.lastBlockHeight + 1n} (validators: ${listed})`;
    if (chain.lastBlockHeight === 0n) {
      throw new RemoteSignerError(
        "PRIVVAL_REMOTE_WRONG_KEY",
        `${what}; give the signer the validator key genesis expects (priv_validator_key.json), or fix genesis`,
      );
    }
    logger.warn(`${what}: this node will not vote until it joins the set`);
  }
  logger.info("remote signer connected", { address: hex(address), pubKey: hex(publicKey) });
  // double_sign_check_height reads the signer's state, which lives with the signer: its own state
  // file keeps it from signing twice.
  return {
    address,
    publicKey,
    signVote: (chainId, vote) => client.signVote(chainId, vote),
    signProposal: (chainId, proposal) => client.signProposal(chainId, proposal),
  };
}
