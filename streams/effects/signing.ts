// SignVote / SignProposal → VoteSigned / ProposalSigned, one at a time and in order (concatMap).
// Nothing leaves before both are durable: the consensus log (what we are about to say, and every
// input that led to it) and the signer's last-sign state. A signer that can hold its state back
// (`replacesStateAfterLog`: the file signer) is handed the log itself. The node's log records the
// signer's new state before its sync (LogSync.syncRecording), which is then the signature's one
// durable step, the state file written after it (src/privval/sign-state-store.ts). Given a log
// that cannot record, its new state file is staged
// at once, and its writer thread runs the log's fdatasync (beside the stage's fsync) before
// renaming the file over the old one, so the disk never holds a signer state ahead of the log
// (docs/consensus-gossip.md, "Our own messages") and a signature costs one answer from that thread, the log's sync included;
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
import { type LogSync, logSyncedBy } from "../../src/privval/log-sync.js";
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
   * True when the signer takes the log (`log`) and makes its new state durable only once it has
   * synced that log (rejecting, with nothing stored, when the sync fails): it is then asked at
   * once. Otherwise it is asked after the sync and `log` is not given.
   */
  readonly replacesStateAfterLog?: boolean;
  signVote(chainId: string, vote: Vote, log?: LogSync): MaybePromise<Vote>;
  signProposal(chainId: string, proposal: Proposal, log?: LogSync): MaybePromise<Proposal>;
}

export interface SigningDeps {
  signer: ConsensusSigner;
  chainId: string;
  /** Syncs the consensus log (Wal.syncBeforeSigning); a simulation's log is in memory. */
  syncLog(): MaybePromise<void>;
  /**
   * The node's consensus log, lent to a signer that replaces its state after the log: that
   * signer runs the log's sync itself (Wal.syncVia). Without it the signer waits for `syncLog`.
   */
  log?: LogSync;
  logger: Logger;
}

type SignEffect = SignVote | SignProposal;

function what(e: SignEffect): "proposal" | "prevote" | "precommit" {
  if (e.type === "SignProposal") return "proposal";
  return e.vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevote" : "precommit";
}

/** The signer's answer to `e` as an input, released once the log and the signer are both durable. */
function signedAfterLog(deps: SigningDeps, e: SignEffect): MaybePromise<ConsensusInput> {
  const ask = (log?: LogSync): MaybePromise<ConsensusInput> =>
    e.type === "SignVote"
      ? andThen(
          deps.signer.signVote(deps.chainId, e.vote, log),
          (vote): ConsensusInput => ({ type: "VoteSigned", time: UNSTAMPED, vote }),
        )
      : andThen(
          deps.signer.signProposal(deps.chainId, e.proposal, log),
          (proposal): ConsensusInput => ({ type: "ProposalSigned", time: UNSTAMPED, proposal }),
        );
  const lend = deps.log;
  if (lend !== undefined && deps.signer.replacesStateAfterLog === true) {
    // The signer syncs the log itself. Its answer is released only once that sync has resolved
    // too; a signer that did not sync it (a refusal, or a signature repeated from its file) leaves
    // the sync to us, so nothing leaves before the log is durable in any case.
    let lentSync: Promise<void> | undefined;
    const recording = lend.syncRecording?.bind(lend);
    const log: LogSync = {
      syncVia: (datasync) => (lentSync = lend.syncVia(datasync)),
      // The node's log takes the signer's record too: its sync is then the signature's durable step.
      ...(recording ? { syncRecording: (record, datasync) => (lentSync = recording(record, datasync)) } : {}),
    };
    return andThen(ask(log), (input) => andThen(lentSync ?? deps.syncLog(), () => input));
  }
  const synced = deps.syncLog();
  // A log synced at once (the simulation's) or a signer that cannot hold its state back: in series.
  if (!isPromise(synced) || deps.signer.replacesStateAfterLog !== true) return andThen(synced, () => ask());
  // Side by side; a signer refusing at once still waits for the sync, so its rejection is handled.
  const signed = new Promise<ConsensusInput>((resolve) => resolve(ask(logSyncedBy(synced))));
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
