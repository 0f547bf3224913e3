// The signer's rules as one pure function: given what was signed last and what is asked, either
// sign (and store the new last-sign state first), hand back the stored signature (the same
// message asked again, possibly with another timestamp), or refuse (throw a PrivvalError).
// Every signer runs it: the file signer of the node, the same signer over an in-memory store in
// the simulation, and any remote implementation of the signer port that keeps its own state.
import type { PrivValidatorState, SignStep } from "../types/key-file-priv-validator-state.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { Proposal, Vote } from "../wire/generated/tendermint/types/types.js";
import { proposalSignBytes, voteSignBytes } from "../wire/sign-bytes.js";
import { PrivvalError } from "./errors.js";
import { checkHrs } from "./hrs-check.js";
import { STEP_PROPOSE, stepName, voteStep } from "./sign-step.js";
import { storedTimestampIfOnlyTimeDiffers } from "./timestamp-only-diff.js";

export type SignRequest =
  | { readonly kind: "vote"; readonly chainId: string; readonly vote: Vote }
  | { readonly kind: "proposal"; readonly chainId: string; readonly proposal: Proposal };

export type SignDecision =
  /** Sign `signBytes`; `next` (with the signature added) must be stored durably before it leaves. */
  | {
      readonly kind: "sign";
      readonly signBytes: Uint8Array;
      readonly next: Omit<PrivValidatorState, "signature">;
    }
  /** Already signed: return the stored signature (with the stored timestamp when only the time differed). */
  | { readonly kind: "reuse"; readonly signature: Uint8Array; readonly timestamp: Timestamp | undefined };

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();

/** Where the request sits: height, round, step; refuses a request no signer may sign. */
function position(request: SignRequest): { height: bigint; round: number; step: SignStep } {
  const { height, round } = request.kind === "vote" ? request.vote : request.proposal;
  if (height < 0n || !Number.isInteger(round) || round < 0 || round > 2 ** 31 - 1)
    throw new PrivvalError(
      "PRIVVAL_BAD_REQUEST",
      `cannot sign a ${request.kind} at height ${height} round ${round}`,
    );
  if (request.kind === "proposal" && request.proposal.polRound < -1)
    throw new PrivvalError(
      "PRIVVAL_BAD_REQUEST",
      `cannot sign a proposal with POL round ${request.proposal.polRound}`,
    );
  return { height, round, step: request.kind === "vote" ? voteStep(request.vote.type) : STEP_PROPOSE };
}

/** The canonical bytes a request signs. */
export function signBytesOf(request: SignRequest): Uint8Array {
  return request.kind === "vote"
    ? voteSignBytes(request.chainId, request.vote)
    : proposalSignBytes(request.chainId, request.proposal);
}

/** v0.34's FilePV rules (position, height/round/step, conflicting data, timestamp-only change). */
export function decideSign(last: PrivValidatorState, request: SignRequest): SignDecision {
  const { height, round, step } = position(request);
  const signBytes = signBytesOf(request);
  if (checkHrs(last, height, round, step) === "new")
    return { kind: "sign", signBytes, next: { height, round, step, signBytes } };
  const storedBytes = last.signBytes!;
  const storedSignature = last.signature!;
  if (Buffer.from(storedBytes).equals(Buffer.from(signBytes)))
    return { kind: "reuse", signature: storedSignature, timestamp: undefined };
  const timestamp = storedTimestampIfOnlyTimeDiffers(request.kind, storedBytes, signBytes);
  if (timestamp !== undefined) return { kind: "reuse", signature: storedSignature, timestamp };
  throw new PrivvalError(
    "PRIVVAL_CONFLICTING_DATA",
    `conflicting data: refusing to sign a different ${request.kind} at ${height}/${round}/${stepName(step)}; ` +
      `signed ${hex(storedBytes)}, asked ${hex(signBytes)}`,
  );
}

/** The signed vote or proposal a decision's signature (and stored timestamp) makes of the request. */
export function signedMessage<R extends SignRequest>(
  request: R,
  signature: Uint8Array,
  timestamp: Timestamp | undefined,
): R extends { kind: "vote" } ? Vote : Proposal {
  const message = request.kind === "vote" ? request.vote : request.proposal;
  return (timestamp ? { ...message, timestamp, signature } : { ...message, signature }) as never;
}
