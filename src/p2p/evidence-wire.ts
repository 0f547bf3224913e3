// The evidence channel (0x38): a bare `tendermint.types.EvidenceList` (no oneof wrapper). We send
// one evidence per message, as v0.34 does; a peer's list is decoded within the channel's receive
// capacity and each item must pass ValidateBasic, else the peer broke the protocol.
import { TypesError } from "../types/errors.js";
import { validateEvidence } from "../types/validate-evidence.js";
import { type Evidence, EvidenceList } from "../wire/generated/tendermint/types/evidence.js";

/** v0.34's evidence channel receive capacity (maxMsgSize). */
export const EVIDENCE_RECV_MESSAGE_CAPACITY = 1048576;

export function encodeEvidenceMessage(evidence: Evidence): Uint8Array {
  return EvidenceList.encode({ evidence: [evidence] }).finish();
}

export type DecodedEvidenceMessage =
  | { readonly kind: "evidence"; readonly evidence: readonly Evidence[] }
  | { readonly kind: "invalid"; readonly reason: string };

export function decodeEvidenceMessage(bytes: Uint8Array): DecodedEvidenceMessage {
  if (bytes.length > EVIDENCE_RECV_MESSAGE_CAPACITY)
    return {
      kind: "invalid",
      reason: `evidence message of ${bytes.length} bytes is over the channel's capacity ${EVIDENCE_RECV_MESSAGE_CAPACITY}`,
    };
  let list: EvidenceList;
  try {
    list = EvidenceList.decode(bytes);
  } catch (error) {
    return { kind: "invalid", reason: `undecodable evidence list: ${(error as Error).message}` };
  }
  for (const [i, item] of list.evidence.entries()) {
    try {
      validateEvidence(item, `evidence[${i}]`);
    } catch (error) {
      if (error instanceof TypesError) return { kind: "invalid", reason: `evidence list: ${error.message}` };
      throw error;
    }
  }
  return { kind: "evidence", evidence: list.evidence };
}
