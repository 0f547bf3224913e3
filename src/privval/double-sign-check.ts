// double_sign_check_height: before a validator starts signing, look for its own signature in the
// last N commits of the chain. Finding one that the signer state does not account for means
// another process signs with the same key (a copied key, a restored backup): starting would make
// two signers out of one validator, so the start is refused.
//
// CometBFT v0.34 has the option off by default, and its look-back reads "seen commits", which v0.34
// keeps for the latest height only, so the older heights are never really checked. Here it is on by
// default, reads each height's commit through `loadCommit`, and counts nil precommits too: a
// signature of ours with flag NIL is as much a sign of a twin as one with flag COMMIT.

import { BlockIDFlag, type Commit } from "../wire/generated/tendermint/types/types.js";
import { PrivvalError } from "./errors.js";

export const DEFAULT_DOUBLE_SIGN_CHECK_HEIGHT = 10n;

export interface RecentSignatureCheckOptions {
  /**
   * The height our signer state says it signed up to: our own signatures at or below it are
   * expected and not counted. Defaults to 0 (a fresh signer state: every signature counts).
   */
  signedUpTo?: bigint;
}

/**
 * Resolves when `address` signed none of the commits of heights
 * `max(latestHeight - lookBack + 1, signedUpTo + 1, 1) .. latestHeight`; otherwise throws
 * PRIVVAL_RECENT_SIGNATURE naming the height. A look-back of 0 checks nothing.
 * `loadCommit(h)` gives the commit of height h (undefined when the store does not have it).
 */
export async function checkRecentSignatures(
  address: Uint8Array,
  lookBack: bigint | number,
  loadCommit: (height: bigint) => Promise<Commit | undefined>,
  latestHeight: bigint,
  options: RecentSignatureCheckOptions = {},
): Promise<void> {
  const n = BigInt(lookBack);
  if (n < 0n)
    throw new PrivvalError("PRIVVAL_BAD_REQUEST", `double_sign_check_height must be >= 0, got ${n}`);
  let lowest = latestHeight - n + 1n;
  const signedUpTo = options.signedUpTo ?? 0n;
  if (lowest <= signedUpTo) lowest = signedUpTo + 1n;
  if (lowest < 1n) lowest = 1n;
  const ours = Buffer.from(address);
  for (let height = latestHeight; height >= lowest; height--) {
    const commit = await loadCommit(height);
    if (commit === undefined) continue;
    for (let index = 0; index < commit.signatures.length; index++) {
      const sig = commit.signatures[index]!;
      const signed =
        sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT ||
        (sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_NIL && sig.signature.length > 0);
      if (signed && ours.equals(Buffer.from(sig.validatorAddress))) {
        const flag = sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT ? "for the block" : "for nil";
        throw new PrivvalError(
          "PRIVVAL_RECENT_SIGNATURE",
          `double_sign_check_height: validator ${ours.toString("hex").toUpperCase()} signed the commit of ` +
            `height ${height} (${flag}, signature ${index}) that this signer's state does not know about ` +
            `(it signed up to height ${signedUpTo}); another process may be signing with this key. ` +
            `Refusing to start; stop the other signer, or set double_sign_check_height = 0 if you are sure.`,
        );
      }
    }
  }
}
