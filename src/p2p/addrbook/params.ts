// v0.34's address book constants (p2p/pex/params.go).
export const NEW_BUCKET_COUNT = 256;
export const OLD_BUCKET_COUNT = 64;
export const BUCKET_SIZE = 64;
export const NEW_BUCKETS_PER_GROUP = 32;
export const OLD_BUCKETS_PER_GROUP = 4;
export const MAX_NEW_BUCKETS_PER_ADDRESS = 4;
/** below this many addresses the book asks peers (and seeds) for more */
export const NEED_ADDRESS_THRESHOLD = 1000;
export const NUM_MISSING_DAYS = 7;
export const NUM_RETRIES = 3;
export const MAX_FAILURES = 10;
export const MIN_BAD_DAYS = 7;
export const GET_SELECTION_PERCENT = 23;
export const MIN_GET_SELECTION = 32;
export const MAX_GET_SELECTION = 250;
export const BAN_MS = 24 * 60 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;
