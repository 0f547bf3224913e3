// The signer's answer to one request from the node: its public key, a signed vote or proposal,
// or a pong. The double-sign rules are the file signer's (src/privval): one implementation, two
// transports. A request for another chain is refused, naming both chains (v0.34 answers "unable
// to sign vote"; this says why). A refusal carries the file signer's code first in its
// description, so the node can tell a double-sign refusal from a full disk.

import type { Message, RemoteSignerError } from "../../wire/generated/tendermint/privval/types.js";
import type { Proposal, Vote } from "../../wire/generated/tendermint/types/types.js";
import {
  messageName,
  pingResponse,
  pubKeyErrorResponse,
  pubKeyResponse,
  signedProposalErrorResponse,
  signedProposalResponse,
  signedVoteErrorResponse,
  signedVoteResponse,
} from "./messages.js";

/** The signer behind the socket (src/privval FileSigner satisfies it). */
export interface SigningKey {
  readonly publicKey: Uint8Array;
  signVote(chainId: string, vote: Vote): Promise<Vote>;
  signProposal(chainId: string, proposal: Proposal): Promise<Proposal>;
}

export interface HandledRequest {
  response: Message;
  /** What happened, for the signer's log: undefined for a plain success. */
  refusal?: string;
  /** The request's kind and position, for the log. */
  what: string;
}

function refusal(error: unknown): RemoteSignerError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return { code: 0, description: typeof code === "string" ? `${code}: ${message}` : message };
}

function wrongChain(ours: string, asked: string, what: string): RemoteSignerError {
  return {
    code: 0,
    description:
      `PRIVVAL_WRONG_CHAIN_ID: unable to ${what}: this signer signs for chain ${JSON.stringify(ours)}, ` +
      `the request is for chain ${JSON.stringify(asked)}`,
  };
}

/** Answers `request` (never throws: every failure is an answer with an error, or undefined for an unknown message). */
export async function answerRequest(
  signer: SigningKey,
  chainId: string,
  request: Message,
): Promise<HandledRequest | undefined> {
  const sum = request.sum;
  switch (sum?.$case) {
    case "pingRequest":
      return { response: pingResponse(), what: "ping" };
    case "pubKeyRequest": {
      const asked = sum.pubKeyRequest.chainId;
      if (asked !== chainId) {
        const error = wrongChain(chainId, asked, "provide the public key");
        return { response: pubKeyErrorResponse(error), refusal: error.description, what: "public key" };
      }
      return { response: pubKeyResponse(signer.publicKey), what: "public key" };
    }
    case "signVoteRequest": {
      const { vote, chainId: asked } = sum.signVoteRequest;
      const what = vote
        ? `vote ${vote.height}/${vote.round}/${vote.type === 1 ? "prevote" : "precommit"}`
        : "vote";
      let error: RemoteSignerError | undefined;
      if (asked !== chainId) error = wrongChain(chainId, asked, "sign the vote");
      else if (!vote)
        error = { code: 0, description: "PRIVVAL_BAD_REQUEST: a sign vote request without a vote" };
      else {
        try {
          return { response: signedVoteResponse(await signer.signVote(chainId, vote)), what };
        } catch (e) {
          error = refusal(e);
        }
      }
      return { response: signedVoteErrorResponse(error), refusal: error.description, what };
    }
    case "signProposalRequest": {
      const { proposal, chainId: asked } = sum.signProposalRequest;
      const what = proposal ? `proposal ${proposal.height}/${proposal.round}` : "proposal";
      let error: RemoteSignerError | undefined;
      if (asked !== chainId) error = wrongChain(chainId, asked, "sign the proposal");
      else if (!proposal)
        error = { code: 0, description: "PRIVVAL_BAD_REQUEST: a sign proposal request without a proposal" };
      else {
        try {
          return { response: signedProposalResponse(await signer.signProposal(chainId, proposal)), what };
        } catch (e) {
          error = refusal(e);
        }
      }
      return { response: signedProposalErrorResponse(error), refusal: error.description, what };
    }
    default:
      return undefined;
  }
}

export { messageName };
