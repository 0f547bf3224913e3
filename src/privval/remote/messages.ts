// The privval socket protocol's messages (tendermint.privval.Message, v0.34 field numbers) as the
// two ends build them: requests from the node, answers from the signer. An answer carrying an
// error holds an empty vote or proposal the way Go writes one (zero time 0001-01-01, an empty
// block ID), so our bytes equal v0.34's.

import { goZeroTime } from "../../types/time.js";
import type { PublicKey } from "../../wire/generated/tendermint/crypto/keys.js";
import type { Message, RemoteSignerError } from "../../wire/generated/tendermint/privval/types.js";
import type { BlockID, Proposal, Vote } from "../../wire/generated/tendermint/types/types.js";

export type PrivvalMessage = Message;
export type PrivvalMessageCase = NonNullable<Message["sum"]>["$case"];

/** v0.34 reads at most this many bytes of one message (maxRemoteSignerMsgSize). */
export const MAX_PRIVVAL_MESSAGE_BYTES = 10 * 1024;

const EMPTY = new Uint8Array(0);

function emptyBlockId(): BlockID {
  return { hash: EMPTY, partSetHeader: { total: 0, hash: EMPTY } };
}

/** Go's zero Vote: what a SignedVoteResponse with an error carries. */
export function emptyVote(): Vote {
  return {
    type: 0,
    height: 0n,
    round: 0,
    blockId: emptyBlockId(),
    timestamp: goZeroTime(),
    validatorAddress: EMPTY,
    validatorIndex: 0,
    signature: EMPTY,
  };
}

/** Go's zero Proposal: what a SignedProposalResponse with an error carries. */
export function emptyProposal(): Proposal {
  return {
    type: 0,
    height: 0n,
    round: 0,
    polRound: 0,
    blockId: emptyBlockId(),
    timestamp: goZeroTime(),
    signature: EMPTY,
  };
}

export const pingRequest = (): Message => ({ sum: { $case: "pingRequest", pingRequest: {} } });
export const pingResponse = (): Message => ({ sum: { $case: "pingResponse", pingResponse: {} } });

export const pubKeyRequest = (chainId: string): Message => ({
  sum: { $case: "pubKeyRequest", pubKeyRequest: { chainId } },
});

export const signVoteRequest = (chainId: string, vote: Vote): Message => ({
  sum: { $case: "signVoteRequest", signVoteRequest: { vote, chainId } },
});

export const signProposalRequest = (chainId: string, proposal: Proposal): Message => ({
  sum: { $case: "signProposalRequest", signProposalRequest: { proposal, chainId } },
});

export function ed25519PublicKey(key: Uint8Array): PublicKey {
  return { sum: { $case: "ed25519", ed25519: key } };
}

export const pubKeyResponse = (key: Uint8Array): Message => ({
  sum: { $case: "pubKeyResponse", pubKeyResponse: { pubKey: ed25519PublicKey(key), error: undefined } },
});

export const pubKeyErrorResponse = (error: RemoteSignerError): Message => ({
  sum: { $case: "pubKeyResponse", pubKeyResponse: { pubKey: { sum: undefined }, error } },
});

export const signedVoteResponse = (vote: Vote): Message => ({
  sum: { $case: "signedVoteResponse", signedVoteResponse: { vote, error: undefined } },
});

export const signedVoteErrorResponse = (error: RemoteSignerError): Message => ({
  sum: { $case: "signedVoteResponse", signedVoteResponse: { vote: emptyVote(), error } },
});

export const signedProposalResponse = (proposal: Proposal): Message => ({
  sum: { $case: "signedProposalResponse", signedProposalResponse: { proposal, error: undefined } },
});

export const signedProposalErrorResponse = (error: RemoteSignerError): Message => ({
  sum: { $case: "signedProposalResponse", signedProposalResponse: { proposal: emptyProposal(), error } },
});

/** The answer a request expects, by case. */
export function expectedResponseCase(request: PrivvalMessageCase): PrivvalMessageCase | undefined {
  switch (request) {
    case "pubKeyRequest":
      return "pubKeyResponse";
    case "signVoteRequest":
      return "signedVoteResponse";
    case "signProposalRequest":
      return "signedProposalResponse";
    case "pingRequest":
      return "pingResponse";
    default:
      return undefined;
  }
}

/** A short name for logs and errors. */
export function messageName(message: Message): string {
  return message.sum?.$case ?? "empty message";
}
