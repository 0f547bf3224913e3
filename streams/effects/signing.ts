// SignVote / SignProposal → VoteSigned / ProposalSigned, one at a time and in order (concatMap).
// Nothing leaves before both are durable: the consensus log (what we are about to say, and every
// input that led to it) and the signer's last-sign state. A signer that can hold its state back
// (`replacesStateAfterLog`: the file signer) signs while the log syncs, and its new state file is
// staged beside the sync and renamed over the old one only once the sync is done, so the disk
// never holds a signer state ahead of the log (docs/consensus-gossip.md, "Our own messages");
// any other signer (a remote one) is asked once the log is synced. The signer is a port: the file
// signer in the node, the same signer over memory in the simulation (answering synchronously), or
// a remote signer. Any failure becomes SignFailed, on which the reducer halts: a signing path
// never retries silently. The reason starts with the signer's code (a PrivvalError) or SIGNER_IO,
// so the restart rule (restart-fold.ts) tells a transient failure from a refusal by the logged
// record alone.
import { catchError, concatMap, type Observable, of } from "rxjs";
import type { ConsensusEffect, SignProposal, SignVote } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { Logger } from "../../src/logger/index.js";
import { andThen, isPromise, type MaybePromise } from "../../src/types/maybe-async.js";
import type { Proposal, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import { codedSignError } from "../restart-fold.js";
import { UNSTAMPED } from "../sources/stamp-time.js";
import { answerOf } from "./answer.js";
import { ofKinds } from "./effect-kinds.js";

/**
 * The signer port (src/privval FileSigner satisfies it; so may a remote signer). An answer may
 * come now or later; a refusal throws or rejects, ideally with a PrivvalError carrying its code.
 */
export interface ConsensusSigner {
  /**
   * True when the signer takes `logSynced` and makes its new state durable only once that has
   * resolved (rejecting, with nothing stored, when it rejects): it is then asked at once, beside
   * the log's sync. Otherwise it is asked after the sync and `logSynced` is not given.
   */
  readonly replacesStateAfterLog?: boolean;
  signVote(chainId: string, vote: Vote, logSynced?: Promise<void>): MaybePromise<Vote>;
  signProposal(chainId: string, proposal: Proposal, logSynced?: Promise<void>): MaybePromise<Proposal>;
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

/** The signer's answer to `e` as an input, released once the log and the signer are both durable. */
function signedAfterLog(deps: SigningDeps, e: SignEffect): MaybePromise<ConsensusInput> {
  const ask = (logSynced?: Promise<void>): MaybePromise<ConsensusInput> =>
    e.type === "SignVote"
      ? andThen(
          deps.signer.signVote(deps.chainId, e.vote, logSynced),
          (vote): ConsensusInput => ({ type: "VoteSigned", time: UNSTAMPED, vote }),
        )
      : andThen(
          deps.signer.signProposal(deps.chainId, e.proposal, logSynced),
          (proposal): ConsensusInput => ({ type: "ProposalSigned", time: UNSTAMPED, proposal }),
        );
  const synced = deps.syncLog();
  // A log synced at once (the simulation's) or a signer that cannot hold its state back: in series.
  if (!isPromise(synced) || deps.signer.replacesStateAfterLog !== true) return andThen(synced, () => ask());
  // Side by side; a signer refusing at once still waits for the sync, so its rejection is handled.
  const signed = new Promise<ConsensusInput>((resolve) => resolve(ask(synced)));
  return Promise.all([synced, signed]).then(([, input]) => input);
}

/** The effect kinds this handler carries out (the factory routes these to it). */
export const SIGNING_KINDS = ["SignVote", "SignProposal"] as const;

export function signingHandler(deps: SigningDeps) {
  return function signing(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      ofKinds(SIGNING_KINDS),
      concatMap((e) =>
        answerOf(() => signedAfterLog(deps, e)).pipe(
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
