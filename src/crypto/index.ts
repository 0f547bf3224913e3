// crypto: sha256 and addresses, ed25519 keys, signing and verification with Tendermint v0.34's
// acceptance rules (node:crypto, a bounded KeyObject cache), a worker-thread pool for verifying
// large batches (answers of exact triples remembered once per process), public-key addresses by
// key type, and the RFC 6962 merkle tree (merkle*.ts).
export * from "./ed25519-keys.js";
export * from "./ed25519-verify.js";
export * from "./errors.js";
export * from "./hash.js";
export * from "./key-object-cache.js";
export * from "./merkle.js";
export * from "./merkle-proof.js";
export * from "./public-key-address.js";
export * from "./verified-signatures.js";
export type { BatchVerifier, VerifyItem } from "./verify-item.js";
export * from "./verify-pool.js";
