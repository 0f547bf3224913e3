// The wire module owns Tendermint v0.34's byte formats: the protobuf schema (proto/) and the
// codecs generated from it (generated/, imported directly by path), the canonical sign bytes,
// the hashes a header carries, varints and length prefixes. See docs/wire.md.
export * from "./block-id.js";
export * from "./decode.js";
export * from "./errors.js";
export * from "./hashes.js";
export * from "./sign-bytes.js";
export * from "./varint.js";
