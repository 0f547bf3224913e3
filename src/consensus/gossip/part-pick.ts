// Which of our proposal block's parts goes next to a peer that lacks some. Each peer gets first the
// parts of its own stride: of the `count` peers ranked by id, the one of rank r gets the parts
// whose index is r modulo `count` first, lowest first, then the others it lacks, lowest first.
//
// Why: v0.34 itself picks a missing part at random, so each peer first gets different parts from
// the proposer and the relays pass on parts the others have not got yet. Sending every peer the
// same lowest-first order meant a relay held only what the proposer's own link was about to
// deliver, so every relayed part arrived after the proposer's and was a copy. A stride instead of
// a contiguous offset keeps each peer's arrivals near index order (its three sources fill
// neighbouring indices), which the part-set data hash reads on through as parts arrive.
// Deterministic: the rank comes from the peers' ids, not from randomness, so replay and the
// simulation reproduce it.
import { hasBit } from "./bit-array.js";

/** Where a peer stands among our peers, for `pickPart`: its rank by id, and how many there are. */
export interface PeerRank {
  readonly rank: number;
  readonly count: number;
}

/** The index of the next part to send (held by us, not by the peer), or -1 when none is left. */
export function pickPart(
  held: readonly (unknown | undefined)[],
  peer: Readonly<Uint8Array>,
  order: PeerRank,
): number {
  const stride = Math.max(order.count, 1);
  const first = order.rank >= 0 && order.rank < stride ? order.rank : 0;
  for (let i = first; i < held.length; i += stride) if (held[i] !== undefined && !hasBit(peer, i)) return i;
  return lowestMissing(held, peer);
}

/** The lowest-indexed part we hold and the peer lacks, or -1. */
export function lowestMissing(held: readonly (unknown | undefined)[], peer: Readonly<Uint8Array>): number {
  for (let i = 0; i < held.length; i++) if (held[i] !== undefined && !hasBit(peer, i)) return i;
  return -1;
}

/** The rank of `peerId` among `peerIds` in string order (its count of smaller ids). */
export function rankOf(peerId: string, peerIds: Iterable<string>): PeerRank {
  let rank = 0;
  let count = 0;
  for (const id of peerIds) {
    count++;
    if (id < peerId) rank++;
  }
  return { rank, count };
}
