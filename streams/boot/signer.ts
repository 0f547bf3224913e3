// Boot step 4: the validator's signer. With priv_validator_key.json, the file signer, after
// checking that no other process signed recent commits with our key (double_sign_check_height);
// with priv_validator_laddr, the remote signer the node waits for (remote-signer.ts); neither on
// a node that does not validate. The file signer's state file is first made to agree with the
// consensus log, which records each signature before it leaves (src/privval/state-from-log.ts).
import type { NodeConfig } from "../../src/config/config-schema.js";
import type { Logger } from "../../src/logger/index.js";
import { checkRecentSignatures } from "../../src/privval/double-sign-check.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import { reconcileStateFileWithLog } from "../../src/privval/state-from-log.js";
import type { BlockStore } from "../../src/store/block-store.js";
import type { PrivValidatorKey } from "../../src/types/key-file-priv-validator.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import { connectRemoteSigner, type NodeSigner } from "../remote-signer.js";

export interface SignerBoot {
  key: PrivValidatorKey | undefined;
  stateFile: string;
  /** The node's consensus log, opened: its latest signer record (Wal.signedAtOpen). */
  consensusLog?: { readonly dir: string; readonly signedAtOpen: { payload: Uint8Array } | undefined };
  config: NodeConfig;
  blockStore: BlockStore;
  /** The chain state after the handshake: the remote signer's key is checked against it. */
  chain: ChainState;
  logger: Logger;
  onCleanup: (close: () => Promise<unknown> | unknown) => void;
  /** Aborts the wait for a remote signer (Ctrl-C during start). */
  signal?: AbortSignal;
}

export async function openSigner(boot: SignerBoot): Promise<NodeSigner | undefined> {
  const { key, config, blockStore } = boot;
  if (key === undefined) {
    if (config.priv_validator_laddr === "") return undefined;
    return connectRemoteSigner(
      config.priv_validator_laddr,
      boot.chain,
      boot.logger,
      boot.onCleanup,
      boot.signal,
    );
  }
  const log = boot.consensusLog;
  if (log !== undefined) {
    // Before anything is signed: the file may be behind the log (or torn) after a crash.
    const rewritten = reconcileStateFileWithLog(boot.stateFile, log.signedAtOpen?.payload, log.dir);
    if (rewritten !== undefined) boot.logger.warn(rewritten);
  }
  const signer = FileSigner.fromStateFile(key.privateKey, boot.stateFile);
  boot.onCleanup(() => signer.close());
  await signer.warmUp();
  await checkRecentSignatures(
    signer.address,
    config.consensus.double_sign_check_height,
    (h) => blockStore.loadBlockCommit(h),
    blockStore.height(),
    { signedUpTo: signer.lastSignState.height },
  );
  return signer;
}
