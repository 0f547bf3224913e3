// The simulated validator's signer: the file signer's rules (src/privval: the height/round/step
// check and the timestamp-only exception) over an in-memory sign-state store, synchronous so it
// answers within one step of virtual time. FileSigner itself is promise-based (its store may
// fsync), which a virtual-time scheduler cannot wait for; the decisions are the same functions.
// The store outlives a crash (it stands for priv_validator_state.json), so a restarted validator
// cannot sign a second, different vote for a step it already signed.
import { type KeyObject, sign } from "node:crypto";
import { PrivvalError } from "../../src/privval/errors.js";
import { checkHrs } from "../../src/privval/hrs-check.js";
import { memorySignStateStore } from "../../src/privval/sign-state-store.js";
import { STEP_PROPOSE, voteStep } from "../../src/privval/sign-step.js";
import { storedTimestampIfOnlyTimeDiffers } from "../../src/privval/timestamp-only-diff.js";
import type { SignStep } from "../../src/types/key-file-priv-validator-state.js";
import type { Proposal, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { proposalSignBytes, voteSignBytes } from "../../src/wire/sign-bytes.js";

export type SignStateStore = ReturnType<typeof memorySignStateStore>;

export function newSignStateStore(): SignStateStore {
  return memorySignStateStore();
}

export class SimSigner {
  constructor(
    private readonly key: KeyObject,
    private readonly store: SignStateStore,
  ) {}

  signVote(chainId: string, vote: Vote): Vote {
    const signed = this.signOnce(
      "vote",
      vote.height,
      vote.round,
      voteStep(vote.type),
      voteSignBytes(chainId, vote),
    );
    return signed.timestamp
      ? { ...vote, timestamp: signed.timestamp, signature: signed.signature }
      : { ...vote, signature: signed.signature };
  }

  signProposal(chainId: string, proposal: Proposal): Proposal {
    const bytes = proposalSignBytes(chainId, proposal);
    const signed = this.signOnce("proposal", proposal.height, proposal.round, STEP_PROPOSE, bytes);
    return signed.timestamp
      ? { ...proposal, timestamp: signed.timestamp, signature: signed.signature }
      : { ...proposal, signature: signed.signature };
  }

  /** A signature with no protection at all: only Byzantine behaviours call this. */
  rawSign(bytes: Uint8Array): Uint8Array {
    return new Uint8Array(sign(null, bytes, this.key));
  }

  private signOnce(
    kind: "vote" | "proposal",
    height: bigint,
    round: number,
    step: SignStep,
    bytes: Uint8Array,
  ) {
    const last = this.store.state;
    if (checkHrs(last, height, round, step) === "same") {
      if (Buffer.from(last.signBytes!).equals(Buffer.from(bytes))) {
        return { signature: last.signature!, timestamp: undefined };
      }
      const timestamp = storedTimestampIfOnlyTimeDiffers(kind, last.signBytes!, bytes);
      if (timestamp !== undefined) return { signature: last.signature!, timestamp };
      throw new PrivvalError(
        "PRIVVAL_CONFLICTING_DATA",
        `conflicting data: refusing to sign a different ${kind} at ${height}/${round}/${step}`,
      );
    }
    const signature = this.rawSign(bytes);
    this.store.save({ height, round, step, signature, signBytes: bytes });
    return { signature, timestamp: undefined };
  }
}
