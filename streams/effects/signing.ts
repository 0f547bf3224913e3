// SignVote / SignProposal → VoteSigned / ProposalSigned, one at a time and in order (concatMap):
// the consensus log is synced first (what we are about to say is on disk before anyone can see
// it), then the signer (which keeps its last-sign state durably ahead of its answer) signs. The
// signer is a port: the file signer in the node, the same signer over memory in the simulation
// (answering synchronously), or a remote signer. Any failure becomes SignFailed, on which the
// reducer halts: a signing path never retries silently. The reason starts with the signer's code
// (a PrivvalError) or SIGNER_IO, so the restart rule (restart-fold.ts) tells a transient failure
// from a refusal by the logged record alone.
import { catchError, concatMap, filter, type Observable, of } from "rxjs";
import type { ConsensusEffect, SignProposal, SignVote } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { Logger } from "../../src/logger/index.js";
import { andThen, type MaybePromise } from "../../src/types/maybe-async.js";
import type { Proposal, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import { codedSignError } from "../restart-fold.js";
import { UNSTAMPED } from "../sources/stamp-time.js";
import { answerOf } from "./answer.js";

/**
 * The signer port (src/privval FileSigner satisfies it; so may a remote signer). An answer may
 * come now or later; a refusal throws or rejects, ideally with a PrivvalError carrying its code.
 */
export interface ConsensusSigner {
  signVote(chainId: string, vote: Vote): MaybePromise<Vote>;
  signProposal(chainId: string, proposal: Proposal): MaybePromise<Proposal>;
}

export interface SigningDeps {
  signer: ConsensusSigner;
  chainId: string;
  /** Syncs the consensus log (Wal.syncBeforeSigning); a simulation's log is in memory. */
  syncLog(): MaybePromise<void>;
  logger: Logger;
}

type SignEffect = SignVote | SignProposal;

function what(e: SignEffect): "proposal" | "prevote" | "precommit" {
  if (e.type === "SignProposal") return "proposal";
  return e.vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevote" : "precommit";
}

export function signingHandler(deps: SigningDeps) {
  return function signing(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      filter((e): e is SignEffect => e.type === "SignVote" || e.type === "SignProposal"),
      concatMap((e) =>
        answerOf(() =>
          andThen(deps.syncLog(), () =>
            e.type === "SignVote"
              ? andThen(
                  deps.signer.signVote(deps.chainId, e.vote),
                  (vote): ConsensusInput => ({ type: "VoteSigned", time: UNSTAMPED, vote }),
                )
              : andThen(
                  deps.signer.signProposal(deps.chainId, e.proposal),
                  (proposal): ConsensusInput => ({ type: "ProposalSigned", time: UNSTAMPED, proposal }),
                ),
          ),
        ).pipe(
          catchError((error: unknown) => {
            const height = e.type === "SignVote" ? e.vote.height : e.proposal.height;
            const round = e.type === "SignVote" ? e.vote.round : e.proposal.round;
            const reason = codedSignError(error).message;
            deps.logger.error("signing failed; consensus halts", {
              height,
              round,
              what: what(e),
              err: reason,
            });
            return of<ConsensusInput>({
              type: "SignFailed",
              time: UNSTAMPED,
              height,
              round,
              what: what(e),
              reason,
            });
          }),
        ),
      ),
    );
  };
}
