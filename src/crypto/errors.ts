// Errors of the crypto module, each with a stable string code.

export type CryptoErrorCode =
  | "CRYPTO_POOL_CLOSED"
  | "CRYPTO_WORKER_FAILED"
  | "CRYPTO_UNSUPPORTED_KEY_TYPE"
  | "CRYPTO_INVALID_KEY";

export class CryptoError extends Error {
  constructor(
    readonly code: CryptoErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "CryptoError";
  }
}
