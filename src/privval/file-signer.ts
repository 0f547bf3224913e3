// The file signer (a FilePV): signs our votes and proposals with the validator key, never two
// different messages for the same height/round/step, and stores what it signed durably before the
// signature leaves it. The store's write is asynchronous (the event loop runs on while the disk
// syncs); requests are taken one at a time, so the next one is not even checked before the
// previous one's state is on disk.

import { type KeyObject, sign } from "node:crypto";
import { keyPairFromPrivateKey, privateKeyObjectFromSeed, SEED_SIZE } from "../crypto/ed25519-keys.js";
import { addressOf } from "../crypto/hash.js";
import type { PrivValidatorState, SignStep } from "../types/key-file-priv-validator-state.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { Proposal, Vote } from "../wire/generated/tendermint/types/types.js";
import { proposalSignBytes, voteSignBytes } from "../wire/sign-bytes.js";
import { PrivvalError } from "./errors.js";
import { checkHrs } from "./hrs-check.js";
import {
  type FileSignStateStoreOptions,
  fileSignStateStore,
  type SignStateStore,
} from "./sign-state-store.js";
import { STEP_PROPOSE, stepName, voteStep } from "./sign-step.js";
import { storedTimestampIfOnlyTimeDiffers } from "./timestamp-only-diff.js";

interface Signed {
  signature: Uint8Array;
  /** Set when the request differed from the stored message only in its timestamp. */
  timestamp: Timestamp | undefined;
}

export class FileSigner {
  readonly publicKey: Uint8Array;
  readonly address: Uint8Array;
  private readonly key: KeyObject;
  private state: PrivValidatorState;
  private queue: Promise<unknown> = Promise.resolve();
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

  /** What was signed last (a copy). */
  get lastSignState(): PrivValidatorState {
    return { ...this.state };
  }

  /**
   * Signs a prevote or precommit. Returns the vote with its signature; when the same vote was
   * signed before with another timestamp, the stored signature and timestamp come back instead.
   */
  async signVote(chainId: string, vote: Vote): Promise<Vote> {
    checkPosition("vote", vote.height, vote.round);
    const step = voteStep(vote.type);
    const signed = await this.signOnce("vote", vote.height, vote.round, step, voteSignBytes(chainId, vote));
    return signed.timestamp
      ? { ...vote, timestamp: signed.timestamp, signature: signed.signature }
      : { ...vote, signature: signed.signature };
  }

  /** Signs a proposal, with the same rules as votes at step 1 (propose). */
  async signProposal(chainId: string, proposal: Proposal): Promise<Proposal> {
    checkPosition("proposal", proposal.height, proposal.round);
    if (proposal.polRound < -1) {
      throw new PrivvalError(
        "PRIVVAL_BAD_REQUEST",
        `cannot sign a proposal with POL round ${proposal.polRound}`,
      );
    }
    const signBytes = proposalSignBytes(chainId, proposal);
    const signed = await this.signOnce("proposal", proposal.height, proposal.round, STEP_PROPOSE, signBytes);
    return signed.timestamp
      ? { ...proposal, timestamp: signed.timestamp, signature: signed.signature }
      : { ...proposal, signature: signed.signature };
  }

  /** One request at a time: the check, the signature and the durable save are never interleaved. */
  private signOnce(
    kind: "vote" | "proposal",
    height: bigint,
    round: number,
    step: SignStep,
    signBytes: Uint8Array,
  ): Promise<Signed> {
    const run = this.queue.then(() => this.decideAndSign(kind, height, round, step, signBytes));
    this.queue = run.catch(() => {});
    return run;
  }

  private async decideAndSign(
    kind: "vote" | "proposal",
    height: bigint,
    round: number,
    step: SignStep,
    signBytes: Uint8Array,
  ): Promise<Signed> {
    if (this.halted) throw this.halted;
    const last = this.state;
    if (checkHrs(last, height, round, step) === "same") {
      const storedBytes = last.signBytes!;
      const storedSignature = last.signature!;
      if (Buffer.from(storedBytes).equals(Buffer.from(signBytes))) {
        return { signature: storedSignature, timestamp: undefined };
      }
      const timestamp = storedTimestampIfOnlyTimeDiffers(kind, storedBytes, signBytes);
      if (timestamp !== undefined) return { signature: storedSignature, timestamp };
      throw new PrivvalError(
        "PRIVVAL_CONFLICTING_DATA",
        `conflicting data: refusing to sign a different ${kind} at ${height}/${round}/${stepName(step)}; ` +
          `signed ${hex(storedBytes)}, asked ${hex(signBytes)}`,
      );
    }
    const signature = new Uint8Array(sign(null, signBytes, this.key));
    const next: PrivValidatorState = { height, round, step, signature, signBytes };
    try {
      // The signature stays here until the save has resolved: the state is durable first.
      await this.store.save(next);
    } catch (error) {
      // The file may now hold the old state or the new one: signing on could double-sign.
      this.halted = new PrivvalError(
        "PRIVVAL_STATE_WRITE_FAILED",
        `signer state could not be saved at ${height}/${round}/${stepName(step)}; the signer stops ` +
          `signing until restarted: ${(error as Error).message}`,
        { cause: error },
      );
      throw this.halted;
    }
    this.state = next;
    return { signature, timestamp: undefined };
  }
}

function checkPosition(kind: string, height: bigint, round: number): void {
  if (height < 0n || !Number.isInteger(round) || round < 0 || round > 2 ** 31 - 1) {
    throw new PrivvalError("PRIVVAL_BAD_REQUEST", `cannot sign a ${kind} at height ${height} round ${round}`);
  }
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex").toUpperCase();
}
