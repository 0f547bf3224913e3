// SignVote / SignProposal → VoteSigned / ProposalSigned, one at a time and in order (concatMap):
// the consensus log is synced first (what we are about to say is on disk before anyone can see
// it), then the signer (which keeps priv_validator_state.json durably ahead of its answer)
// signs. Any failure becomes SignFailed, on which the reducer halts: a signing path never
// retries silently.
import { catchError, concatMap, defer, filter, type Observable, of } from "rxjs";
import type { ConsensusEffect, SignProposal, SignVote } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { Logger } from "../../src/logger/index.js";
import type { Proposal, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import { UNSTAMPED } from "../sources/stamp-time.js";

/** The signer as this handler uses it (src/privval FileSigner satisfies it). */
export interface ConsensusSigner {
  signVote(chainId: string, vote: Vote): Promise<Vote>;
  signProposal(chainId: string, proposal: Proposal): Promise<Proposal>;
}

export interface SigningDeps {
  signer: ConsensusSigner;
  chainId: string;
  /** Syncs the consensus log (Wal.syncBeforeSigning). */
  syncLog(): Promise<void>;
  logger: Logger;
}

type SignEffect = SignVote | SignProposal;

function what(e: SignEffect): "proposal" | "prevote" | "precommit" {
  if (e.type === "SignProposal") return "proposal";
  return e.vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevote" : "precommit";
}

export function signingHandler(deps: SigningDeps) {
  return (effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> =>
    effect$.pipe(
      filter((e): e is SignEffect => e.type === "SignVote" || e.type === "SignProposal"),
      concatMap((e) =>
        defer(async (): Promise<ConsensusInput> => {
          await deps.syncLog();
          if (e.type === "SignVote") {
            const vote = await deps.signer.signVote(deps.chainId, e.vote);
            return { type: "VoteSigned", time: UNSTAMPED, vote };
          }
          const proposal = await deps.signer.signProposal(deps.chainId, e.proposal);
          return { type: "ProposalSigned", time: UNSTAMPED, proposal };
        }).pipe(
          catchError((error: unknown) => {
            const height = e.type === "SignVote" ? e.vote.height : e.proposal.height;
            const round = e.type === "SignVote" ? e.vote.round : e.proposal.round;
            const reason = error instanceof Error ? error.message : String(error);
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
}
