// The validator's signer: signs our votes and proposals with the validator key by the rules of
// decide-sign.ts, never two different messages for the same height/round/step, and stores what it
// signed before the signature leaves it. The store is a port: priv_validator_state.json written
// on a thread of its own in the node (fileSignStateStore), memory in a simulation (memorySignStateStore,
// which answers synchronously, so the simulation's signer answers within one step of virtual
// time). Requests are taken one at a time: the next one is not even checked before the previous
// one's state is stored. A store that fails latches the signer: it refuses everything until
// restarted, since the disk may hold the old state or the new one. In the node the "store" step
// is the consensus log's sync with the new state recorded in it (LogSync.syncRecording), the
// state file following behind (sign-state-store.ts, state-from-log.ts).

import { type KeyObject, sign } from "node:crypto";
import { keyPairFromPrivateKey, privateKeyObjectFromSeed, SEED_SIZE } from "../crypto/ed25519-keys.js";
import { addressOf } from "../crypto/hash.js";
import type { PrivValidatorState } from "../types/key-file-priv-validator-state.js";
import { andThen, isPromise, type MaybePromise } from "../types/maybe-async.js";
import type { Proposal, Vote } from "../wire/generated/tendermint/types/types.js";
import { decideSign, type SignRequest, signedMessage } from "./decide-sign.js";
import { PrivvalError } from "./errors.js";
import type { LogSync } from "./log-sync.js";
import {
  type FileSignStateStoreOptions,
  fileSignStateStore,
  type SignStateStore,
} from "./sign-state-store.js";
import { stepName } from "./sign-step.js";

export class FileSigner {
  /** `sign`'s `after` holds the new state back until the caller's log is synced (see `sign`). */
  readonly replacesStateAfterLog = true;
  readonly publicKey: Uint8Array;
  readonly address: Uint8Array;
  private readonly key: KeyObject;
  private state: PrivValidatorState;
  /** The request under way while a store's save is pending. */
  private queue: Promise<unknown> | undefined;
  private halted: PrivvalError | undefined;

  /**
   * @param privateKey 64 bytes, seed ‖ public key (the node reads it from priv_validator_key.json).
   * @param store where the last-sign state is saved durably.
   * @param state the last-sign state loaded from that store.
   */
  constructor(
    privateKey: Uint8Array,
    private readonly store: SignStateStore,
    state: PrivValidatorState,
  ) {
    const pair = keyPairFromPrivateKey(privateKey);
    if (typeof pair === "string") throw new PrivvalError("PRIVVAL_BAD_KEY", pair);
    this.publicKey = pair.publicKey;
    this.address = addressOf(pair.publicKey);
    this.key = privateKeyObjectFromSeed(pair.privateKey.subarray(0, SEED_SIZE));
    this.state = { ...state };
  }

  /** A signer over priv_validator_state.json at `statePath` (which must exist: `init` writes it). */
  static fromStateFile(
    privateKey: Uint8Array,
    statePath: string,
    options: FileSignStateStoreOptions = {},
  ): FileSigner {
    const store = fileSignStateStore(statePath, options);
    return new FileSigner(privateKey, store, store.state);
  }

  /** Readies the store (its writer thread) so the first signature does not wait for it to start. */
  async warmUp(): Promise<void> {
    await this.store.warmUp?.();
  }

  /** Releases the store's resources (the state file's writer thread); a save still out rejects. */
  async close(): Promise<void> {
    await this.store.close?.();
  }

  /** What was signed last (a copy). */
  get lastSignState(): PrivValidatorState {
    return { ...this.state };
  }

  /**
   * Signs a prevote or precommit. Returns the vote with its signature; when the same vote was
   * signed before with another timestamp, the stored signature and timestamp come back instead.
   * Always a promise (the node's callers await it); `sign` answers synchronously when it can.
   * `after`: see `sign`.
   */
  async signVote(chainId: string, vote: Vote, after?: LogSync): Promise<Vote> {
    return this.sign({ kind: "vote", chainId, vote }, after) as MaybePromise<Vote>;
  }

  /** Signs a proposal, with the same rules as votes at step 1 (propose). */
  async signProposal(chainId: string, proposal: Proposal, after?: LogSync): Promise<Proposal> {
    return this.sign({ kind: "proposal", chainId, proposal }, after) as MaybePromise<Proposal>;
  }

  /**
   * Signs a request: now when the store saves synchronously (and nothing is queued), else once the
   * new state is stored. A refusal throws (or rejects with) a PrivvalError.
   *
   * `after` (the node's consensus log): the new state is prepared at once but replaces the stored
   * one only once the log is synced, a sync the store runs itself (on the state file's thread,
   * right before the rename), so the state file never records a signature whose reasons the log
   * could still lose. If that sync fails, nothing is stored, the signer is not stopped (its file
   * holds the old state for sure) and the request rejects with the log's error. A request that
   * is refused, or answered from the stored signature, does not sync the log: the caller does.
   */
  sign(request: SignRequest, after?: LogSync): MaybePromise<Vote | Proposal> {
    const result = this.queue
      ? this.queue.then(() => this.decideAndSign(request, after))
      : this.decideAndSign(request, after);
    if (isPromise(result)) {
      const settled: Promise<unknown> = result.then(
        () => this.dequeue(settled),
        () => this.dequeue(settled),
      );
      this.queue = settled;
    }
    return result;
  }

  private dequeue(done: Promise<unknown>): void {
    if (this.queue === done) this.queue = undefined;
  }

  private decideAndSign(request: SignRequest, after: LogSync | undefined): MaybePromise<Vote | Proposal> {
    if (this.halted) throw this.halted;
    const decision = decideSign(this.state, request);
    if (decision.kind === "reuse") return signedMessage(request, decision.signature, decision.timestamp);
    const signature = new Uint8Array(sign(null, decision.signBytes, this.key));
    const next: PrivValidatorState = { ...decision.next, signature };
    const latch = (error: unknown): never => {
      this.halted = new PrivvalError(
        "PRIVVAL_STATE_WRITE_FAILED",
        `signer state could not be saved at ${next.height}/${next.round}/${stepName(next.step)}; the signer stops ` +
          `signing until restarted: ${(error as Error).message}`,
        { cause: error },
      );
      throw this.halted;
    };
    // A failure of `after` is its own (the log's), not the store's: the store kept the old state.
    let afterFailure: { error: unknown } | undefined;
    const watch = (synced: Promise<void>): Promise<void> => {
      synced.then(undefined, (error: unknown) => {
        afterFailure = { error };
      });
      return synced;
    };
    const recording = after?.syncRecording?.bind(after);
    const watched: LogSync | undefined = after && {
      syncVia: (datasync) => watch(after.syncVia(datasync)),
      ...(recording ? { syncRecording: (record, datasync) => watch(recording(record, datasync)) } : {}),
    };
    let saved: MaybePromise<void>;
    try {
      // The signature stays here until the save has returned: the state is durable first.
      saved = this.store.save(next, watched);
    } catch (error) {
      return latch(error);
    }
    const stored = isPromise(saved)
      ? saved.catch((error: unknown) => {
          if (afterFailure !== undefined && afterFailure.error === error) throw error;
          return latch(error);
        })
      : saved;
    return andThen(stored, () => {
      this.state = next;
      return signedMessage(request, signature, undefined);
    });
  }
}
