// The bytes validators sign: uvarint(length) ‖ protobuf(CanonicalVote | CanonicalProposal)
// (types/canonical.go). Height and round are sfixed64 there, a zero BlockID is left out, the
// timestamp is always present and the chain id closes the message.

import { blockIdIsZero } from "./block-id.js";
import type { CanonicalBlockID } from "./generated/tendermint/types/canonical.js";
import { CanonicalProposal, CanonicalVote } from "./generated/tendermint/types/canonical.js";
import {
  type BlockID,
  type Commit,
  type CommitSig,
  type Proposal,
  SignedMsgType,
  type Vote,
} from "./generated/tendermint/types/types.js";
import { lengthPrefixed } from "./varint.js";

/** The canonical form of a BlockID, or undefined for the zero BlockID (so it is not encoded). */
export function canonicalBlockId(blockId: BlockID | undefined): CanonicalBlockID | undefined {
  if (blockId === undefined || blockIdIsZero(blockId)) return undefined;
  return {
    hash: blockId.hash,
    partSetHeader: { total: blockId.partSetHeader.total, hash: blockId.partSetHeader.hash },
  };
}

export function canonicalVote(chainId: string, vote: Vote): CanonicalVote {
  return {
    type: vote.type,
    height: vote.height,
    round: BigInt(vote.round),
    blockId: canonicalBlockId(vote.blockId),
    timestamp: vote.timestamp,
    chainId,
  };
}

export function canonicalProposal(chainId: string, proposal: Proposal): CanonicalProposal {
  return {
    // Always PROPOSAL, whatever the message claims (as CanonicalizeProposal does).
    type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
    height: proposal.height,
    round: BigInt(proposal.round),
    polRound: BigInt(proposal.polRound),
    blockId: canonicalBlockId(proposal.blockId),
    timestamp: proposal.timestamp,
    chainId,
  };
}

// The sign bytes of a vote or proposal object, remembered per object (and chain id). One decoded
// vote is checked by the source step, counted, relayed, checked again in evidence, and in a
// simulation every validator receives the same decoded object: encoding its canonical form each
// time was about a twentieth of a simulated run. Messages are immutable data here (the reducers'
// purity rests on it), so an object's bytes never change; a WeakMap holds no object alive and
// cannot show a collection, so the answer is the same with or without an entry. The bytes are
// shared: callers read them, never write.
interface Remembered {
  readonly chainId: string;
  readonly bytes: Uint8Array;
}
const voteBytes = new WeakMap<Vote, Remembered>();
const proposalBytes = new WeakMap<Proposal, Remembered>();

/** What a validator signs for a vote (reference §7.3). */
export function voteSignBytes(chainId: string, vote: Vote): Uint8Array {
  const known = voteBytes.get(vote);
  if (known !== undefined && known.chainId === chainId) return known.bytes;
  const bytes = lengthPrefixed(CanonicalVote.encode(canonicalVote(chainId, vote)).finish());
  voteBytes.set(vote, { chainId, bytes });
  return bytes;
}

/** What the proposer signs for a proposal (reference §7.4). */
export function proposalSignBytes(chainId: string, proposal: Proposal): Uint8Array {
  const known = proposalBytes.get(proposal);
  if (known !== undefined && known.chainId === chainId) return known.bytes;
  const bytes = lengthPrefixed(CanonicalProposal.encode(canonicalProposal(chainId, proposal)).finish());
  proposalBytes.set(proposal, { chainId, bytes });
  return bytes;
}

// A commit's signatures are checked by rebuilding each precommit (a new Vote object every time,
// so the per-vote memo above never hits): a block's LastCommit is checked by every validator's
// proposal-block rule, again at execution and by evidence, each time encoding one canonical vote
// per CommitSig. Remembered per CommitSig object, with what the bytes were built from (the commit
// object, its height, round and BlockID, the signature's flag and timestamp objects) compared on
// every hit, so a commit assembled anew or with a field replaced is encoded again.
interface RememberedSig extends Remembered {
  readonly commit: Commit;
  readonly index: number;
  readonly height: bigint;
  readonly round: number;
  readonly blockId: BlockID;
  readonly flag: number;
  readonly timestamp: CommitSig["timestamp"];
}
const commitSigBytes = new WeakMap<CommitSig, RememberedSig>();

/**
 * What signature `index` of `commit` signs, given `vote`, the precommit rebuilt from it
 * (Commit.VoteSignBytes); remembered per CommitSig.
 */
export function commitSigSignBytes(chainId: string, commit: Commit, index: number, vote: Vote): Uint8Array {
  const sig = commit.signatures[index]!;
  const known = commitSigBytes.get(sig);
  if (
    known !== undefined &&
    known.chainId === chainId &&
    known.commit === commit &&
    known.index === index &&
    known.height === commit.height &&
    known.round === commit.round &&
    known.blockId === commit.blockId &&
    known.flag === sig.blockIdFlag &&
    known.timestamp === sig.timestamp
  )
    return known.bytes;
  const bytes = lengthPrefixed(CanonicalVote.encode(canonicalVote(chainId, vote)).finish());
  commitSigBytes.set(sig, {
    chainId,
    bytes,
    commit,
    index,
    height: commit.height,
    round: commit.round,
    blockId: commit.blockId,
    flag: sig.blockIdFlag,
    timestamp: sig.timestamp,
  });
  return bytes;
}
