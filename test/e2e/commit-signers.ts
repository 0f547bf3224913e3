// Whether a validator signs again after coming back: the first height after `after` whose commit
// (read from node `reader`'s /commit) holds its precommit for the block.
import type { Network } from "./network-harness.js";

interface CommitSignature {
  block_id_flag: number | string;
  validator_address: string;
}

/** The v0.34 BlockIDFlag of a precommit for the committed block. */
const BLOCK_ID_FLAG_COMMIT = 2;

/**
 * Waits, height by height from after + 1, for a commit that carries `address`'s precommit; rejects
 * when `within` heights pass without one. `signer` is the node that must have committed each height
 * too (it follows the chain).
 */
export async function firstSignedHeight(
  net: Network,
  opts: { reader: number; signer: number; address: string; after: bigint; within: bigint },
): Promise<bigint> {
  for (let h = opts.after + 1n; h <= opts.after + opts.within; h++) {
    // The commit of h is final once h + 1 is committed.
    await net.waitForHeight([opts.reader, opts.signer], h + 1n, 60_000);
    const commit = await net.rpc<{ signed_header: { commit: { signatures: CommitSignature[] } } }>(
      opts.reader,
      `/commit?height=${h}`,
    );
    const signed = commit.signed_header.commit.signatures.some(
      (s) => s.validator_address === opts.address && Number(s.block_id_flag) === BLOCK_ID_FLAG_COMMIT,
    );
    if (signed) return h;
  }
  throw new Error(`validator ${opts.address} signed no commit in ${opts.within} heights after ${opts.after}`);
}
