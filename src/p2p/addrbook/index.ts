// The address book (src/p2p/addrbook): v0.34's new/old buckets, good/bad marks and bans as an
// immutable value the PEX reducer owns, and addrbook.json in v0.34's format, written atomically.
export * from "./book.js";
export { AddrBookFileError, decodeAddrBook, encodeAddrBook, goTime } from "./file-format.js";
export { type LoadedBook, loadAddrBook, saveAddrBook } from "./file-store.js";
export { BUCKET_NEW, BUCKET_OLD, isBad, type KnownAddress } from "./known-address.js";
export * as addrBookParams from "./params.js";
