// The file signer (privval): signs our votes and proposals with the validator key, keeps
// priv_validator_state.json (height, round, step, sign bytes, signature) durably ahead of every
// signature it releases, refuses conflicting requests, and checks recent commits at start
// (double_sign_check_height).

export {
  checkRecentSignatures,
  DEFAULT_DOUBLE_SIGN_CHECK_HEIGHT,
  type RecentSignatureCheckOptions,
} from "./double-sign-check.js";
export { PrivvalError, type PrivvalErrorCode } from "./errors.js";
export { FileSigner } from "./file-signer.js";
export { checkHrs, type HrsVerdict } from "./hrs-check.js";
export { type LogSync, logSyncedBy, syncedOnPool } from "./log-sync.js";
export {
  type FileSignStateStoreOptions,
  fileSignStateStore,
  type LoadedSignStateStore,
  memorySignStateStore,
  type SignStateStore,
} from "./sign-state-store.js";
export { STEP_NONE, STEP_PRECOMMIT, STEP_PREVOTE, STEP_PROPOSE, voteStep } from "./sign-step.js";
export { StateFileWriter } from "./state-file-writer.js";
export { storedTimestampIfOnlyTimeDiffers } from "./timestamp-only-diff.js";
