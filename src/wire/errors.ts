// Errors of the wire module: malformed or out-of-range bytes and values at the protobuf boundary.
import { CodedError } from "../coded-error.js";

export type WireErrorCode =
  | "WIRE_VARINT_RANGE"
  | "WIRE_VARINT_OVERFLOW"
  | "WIRE_DECODE_FAILED"
  | "WIRE_MESSAGE_TOO_LARGE"
  | "WIRE_UNKNOWN_EVIDENCE";

export class WireError extends CodedError<WireErrorCode> {
  constructor(code: WireErrorCode, message: string) {
    super(code, message);
  }
}
