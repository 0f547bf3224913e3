// The unit of batch signature verification, and the interface every batch verifier offers.

export interface VerifyItem {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/** Verifies many ed25519 signatures; answer i belongs to item i. */
export interface BatchVerifier {
  verifyBatch(items: readonly VerifyItem[]): Promise<boolean[]>;
}
