// Errors of the crypto module, each with a stable string code.
import { CodedError } from "../coded-error.js";

export type CryptoErrorCode =
  | "CRYPTO_POOL_CLOSED"
  | "CRYPTO_WORKER_FAILED"
  | "CRYPTO_UNSUPPORTED_KEY_TYPE"
  | "CRYPTO_INVALID_KEY";

export class CryptoError extends CodedError<CryptoErrorCode> {
  constructor(code: CryptoErrorCode, message: string) {
    super(code, message);
  }
}
