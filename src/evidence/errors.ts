// Errors of the evidence pool: evidence refused by its checks (the message says which rule), and
// a broken invariant of our own (a pair reported as conflicting that is not one).
import { CodedError } from "../coded-error.js";

export type EvidenceErrorCode = "EVIDENCE_REJECTED" | "EVIDENCE_NOT_A_CONFLICT" | "EVIDENCE_STORE_CORRUPT";

export class EvidenceError extends CodedError<EvidenceErrorCode> {
  constructor(code: EvidenceErrorCode, message: string) {
    super(code, message);
  }
}

/** Evidence refused by the pool's checks; `message` says why. */
export class EvidenceRejectedError extends CodedError<"EVIDENCE_REJECTED"> {
  constructor(reason: string) {
    super("EVIDENCE_REJECTED", reason);
  }
}
