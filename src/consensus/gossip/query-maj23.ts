// v0.34's queryMaj23Routine, one pass for one peer: for each vote set of the peer's height and
// round where we see +2/3 for one BlockID (prevotes, precommits, its POL round's prevotes, and the
// commit we are catching it up with), a VoteSetMaj23 claim; the peer answers with VoteSetBits,
// which corrects what we believe it holds (a vote it never got is sent again). v0.34 sleeps between
// claims; one pass sends them together and sleeps peer_query_maj23_sleep_duration after.

import type { BlockID } from "../../wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../wire/generated/tendermint/types/types.js";
import { roundVotes } from "./our-view.js";
import type { Pass } from "./pass.js";
import type { PeerRoundState } from "./peer-round-state.js";

const PREVOTE = SignedMsgType.SIGNED_MSG_TYPE_PREVOTE;
const PRECOMMIT = SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT;

export function queryMaj23(prs: PeerRoundState, pass: Pass): number {
  const our = pass.our;
  const claim = (height: bigint, round: number, type: SignedMsgType, blockId: BlockID) =>
    pass.send({ $case: "voteSetMaj23", voteSetMaj23: { height, round, type, blockId } });
  if (prs.height === our.height && prs.round >= 0) {
    const votes = roundVotes(our.votes, prs.round);
    const prevotes = votes?.prevotes.majority;
    if (prevotes !== undefined) claim(our.height, prs.round, PREVOTE, prevotes.blockId);
    const precommits = votes?.precommits.majority;
    if (precommits !== undefined) claim(our.height, prs.round, PRECOMMIT, precommits.blockId);
    if (prs.proposalPolRound >= 0) {
      const pol = roundVotes(our.votes, prs.proposalPolRound)?.prevotes.majority;
      if (pol !== undefined) claim(our.height, prs.proposalPolRound, PREVOTE, pol.blockId);
    }
  }
  if (prs.catchupCommitRound !== -1 && prs.height > 0n && prs.height < our.height) {
    if (prs.height + 1n === our.height && our.lastCommit !== undefined) {
      const major = roundVotes(our.lastCommit, our.lastCommitRound)?.precommits.majority;
      if (major !== undefined) claim(prs.height, our.lastCommitRound, PRECOMMIT, major.blockId);
    } else {
      const stored = pass.stored(prs.height);
      if (stored !== undefined) claim(prs.height, stored.commit.round, PRECOMMIT, stored.commit.blockId);
    }
  }
  return pass.nowMs + pass.config.queryMaj23SleepMs;
}
