// The shared words between the signer's log-sync thread and the main thread (log-sync-thread.ts):
// one request and its answer at a time, each numbered, so a wake-up without a new number is
// ignored and an answer is matched to its request.

/** Int32 slots of the control buffer. */
export const REQUEST = 0; // the number of the latest request (main thread writes, then notifies)
export const REQUEST_FD = 1; // its descriptor, or PING_FD
export const ANSWERED = 2; // the number of the latest request answered (the thread writes, then notifies)
export const ANSWER_ERRNO = 3; // 0 when its fdatasync succeeded, else node's (negative) errno

export const CONTROL_SLOTS = 4;

/** A request that syncs nothing: the thread answers at once (a warm-up). */
export const PING_FD = -1;
