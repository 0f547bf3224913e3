// v0.34's switch rule (BlockPool.IsCaughtUp), checked every switchCheckMs while syncing:
//   at least one peer has reported its status, and
//   (the pool's height > 0, or switchWaitMs have passed since the start), and
//   (no peer reported a height above 0, or height >= max peer height - 1).
// The pool's height is the next height to apply, so it is at least 1 and the middle clause always
// holds, as in v0.34. The last block is left to consensus: block sync can only verify a block with
// the next block's LastCommit.
import type { BlockPoolState } from "./state.js";

export function isCaughtUp(state: BlockPoolState, now: number): boolean {
  if (state.peers.size === 0) return false;
  const receivedOrWaited = state.height > 0n || now - state.startedAt > state.params.switchWaitMs;
  const longest = state.maxPeerHeight === 0n || state.height >= state.maxPeerHeight - 1n;
  return receivedOrWaited && longest;
}

/**
 * Beyond v0.34 (which never returns to block sync, CometBFT #129): a node in consensus whose last
 * committed height is more than `threshold` below the highest height its peers report goes back
 * to block sync. Returns that highest height when it does, undefined otherwise; 0 turns the rule
 * off. A node only one or two heights behind catches up through consensus gossip, which block
 * sync cannot beat: it never applies the last block (see isCaughtUp).
 */
export function fellBehind(
  lastHeight: bigint,
  peerHeights: Iterable<bigint>,
  threshold: bigint,
): bigint | undefined {
  if (threshold <= 0n) return undefined;
  let max = 0n;
  for (const h of peerHeights) if (h > max) max = h;
  return max - lastHeight > threshold ? max : undefined;
}
