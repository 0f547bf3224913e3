// The source step for consensus messages from peers (votes, proposals, block parts), in front of
// the consensus log: each is checked by verifyConsensusInput (src/consensus/verify-input.ts)
// against the latest consensus state, with its signatures verified on the shared VerifyPool, and
// only accepted inputs go on to the log. A rejected one (bad shape, bad signature) is reported
// for the peer layer to act on (disconnect); an ignored one (another height, a round too far
// ahead) is dropped quietly. So the reducer, and every replay, trusts what it folds and never
// verifies again. Order is kept (concatMap): a peer's vote never overtakes its earlier proposal.
// There is no peer layer yet: it will feed its decoded messages through this step.
import { catchError, concatMap, EMPTY, from, type Observable, of } from "rxjs";
import type { ConsensusInput, PeerId } from "../../src/consensus/input.js";
import type { ConsensusRules } from "../../src/consensus/rules.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import { type SignatureVerifier, verifyConsensusInput } from "../../src/consensus/verify-input.js";
import type { BatchVerifier, VerifyItem } from "../../src/crypto/verify-item.js";

/** A consensus message from a peer, already decoded into its input. */
export type PeerConsensusInput = Extract<
  ConsensusInput,
  { type: "VoteReceived" } | { type: "ProposalReceived" } | { type: "BlockPartReceived" }
>;

export interface PeerConsensusDeps {
  /** The consensus state the message is checked against (the loop's latest). */
  state(): ConsensusState;
  rules: ConsensusRules;
  /** The node's VerifyPool (signatures off the main thread when there are many). */
  verifier: BatchVerifier;
  /** A peer sent bad data: the peer layer disconnects it. */
  rejected?(from: PeerId, input: PeerConsensusInput, reason: string): void;
  /** Not for us now: dropped, the peer did nothing wrong. */
  ignored?(from: PeerId, input: PeerConsensusInput, reason: string): void;
}

/**
 * verifyConsensusInput with its signature checks done on `verifier`: a first pass collects the
 * signatures the pure check asks about, taking each as good; they are verified as one batch; when
 * one is not, a second pass gives the decision with those answers (same code path, so the same
 * reasons as a synchronous verifier).
 */
export async function verifyPeerInput(
  state: ConsensusState,
  input: ConsensusInput,
  rules: ConsensusRules,
  verifier: BatchVerifier,
): Promise<ReturnType<typeof verifyConsensusInput>> {
  const items: VerifyItem[] = [];
  const collect: SignatureVerifier = (publicKey, message, signature) => {
    items.push({ publicKey, message, signature });
    return true;
  };
  const first = verifyConsensusInput(state, input, rules, collect);
  if (first.kind !== "accept" || items.length === 0) return first;
  const answers = await verifier.verifyBatch(items);
  // Every signature good: the first pass assumed exactly these answers, so its decision stands and
  // the check (sign bytes and all) need not run again. That is the common case of honest peers.
  if (answers.every((answer) => answer === true)) return first;
  let i = 0;
  const answered: SignatureVerifier = () => answers[i++] === true;
  return verifyConsensusInput(state, input, rules, answered);
}

export function peerConsensusSource(
  messages$: Observable<PeerConsensusInput>,
  deps: PeerConsensusDeps,
): Observable<ConsensusInput> {
  return messages$.pipe(
    concatMap((input) =>
      from(verifyPeerInput(deps.state(), input, deps.rules, deps.verifier)).pipe(
        concatMap((outcome): Observable<ConsensusInput> => {
          if (outcome.kind === "accept") return of(input);
          if (outcome.kind === "reject") deps.rejected?.(input.from, input, outcome.reason);
          else deps.ignored?.(input.from, input, outcome.reason);
          return EMPTY;
        }),
        // The pool failing (closed at a stop) is not the peer's fault: the message is dropped.
        catchError((error: unknown) => {
          deps.ignored?.(input.from, input, `not verified: ${(error as Error).message}`);
          return EMPTY;
        }),
      ),
    ),
  );
}
