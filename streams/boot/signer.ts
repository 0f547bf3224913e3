// Boot step 4: the validator's signer (absent on a node without priv_validator_key.json), after
// checking that no other process signed recent commits with our key (double_sign_check_height).
import type { NodeConfig } from "../../src/config/config-schema.js";
import { checkRecentSignatures } from "../../src/privval/double-sign-check.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import type { BlockStore } from "../../src/store/block-store.js";
import type { PrivValidatorKey } from "../../src/types/key-file-priv-validator.js";

export async function openSigner(
  key: PrivValidatorKey | undefined,
  stateFile: string,
  config: NodeConfig,
  blockStore: BlockStore,
): Promise<FileSigner | undefined> {
  if (key === undefined) return undefined;
  const signer = FileSigner.fromStateFile(key.privateKey, stateFile);
  await checkRecentSignatures(
    signer.address,
    config.consensus.double_sign_check_height,
    (h) => blockStore.loadBlockCommit(h),
    blockStore.height(),
    { signedUpTo: signer.lastSignState.height },
  );
  return signer;
}
