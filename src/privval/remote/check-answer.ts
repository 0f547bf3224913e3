// What the node accepts back from a remote signer: the vote or proposal it asked for, unchanged
// but for the timestamp (a signer may hand back the one it signed before, as the file signer
// does), with a signature that verifies under the signer's key. Anything else would put words in
// the validator's mouth that consensus never chose, so it is refused, not repaired.

import { verifyEd25519 } from "../../crypto/ed25519-verify.js";
import type { Proposal, Vote } from "../../wire/generated/tendermint/types/types.js";
import { proposalSignBytes, voteSignBytes } from "../../wire/sign-bytes.js";

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const sameBlockId = (a: Vote["blockId"], b: Vote["blockId"]) =>
  same(a.hash, b.hash) &&
  a.partSetHeader.total === b.partSetHeader.total &&
  same(a.partSetHeader.hash, b.partSetHeader.hash);

/** Undefined when `signed` is `asked` signed by `publicKey`; otherwise what is wrong. */
export function problemWithSignedVote(
  chainId: string,
  asked: Vote,
  signed: Vote,
  publicKey: Uint8Array,
): string | undefined {
  const differs: string[] = [];
  if (signed.type !== asked.type) differs.push("type");
  if (signed.height !== asked.height) differs.push("height");
  if (signed.round !== asked.round) differs.push("round");
  if (!sameBlockId(signed.blockId, asked.blockId)) differs.push("block ID");
  if (!same(signed.validatorAddress, asked.validatorAddress)) differs.push("validator address");
  if (signed.validatorIndex !== asked.validatorIndex) differs.push("validator index");
  if (differs.length) return `the signed vote differs from the one asked in its ${differs.join(", ")}`;
  if (!verifyEd25519(publicKey, voteSignBytes(chainId, signed), signed.signature))
    return "the vote's signature does not verify under the signer's public key";
  return undefined;
}

export function problemWithSignedProposal(
  chainId: string,
  asked: Proposal,
  signed: Proposal,
  publicKey: Uint8Array,
): string | undefined {
  const differs: string[] = [];
  if (signed.type !== asked.type) differs.push("type");
  if (signed.height !== asked.height) differs.push("height");
  if (signed.round !== asked.round) differs.push("round");
  if (signed.polRound !== asked.polRound) differs.push("POL round");
  if (!sameBlockId(signed.blockId, asked.blockId)) differs.push("block ID");
  if (differs.length) return `the signed proposal differs from the one asked in its ${differs.join(", ")}`;
  if (!verifyEd25519(publicKey, proposalSignBytes(chainId, signed), signed.signature))
    return "the proposal's signature does not verify under the signer's public key";
  return undefined;
}
