// Block sync (src/blocksync): the v0.34 blockchain/v0 block pool as a pure reducer (which heights
// to ask of which peer, timeouts, bad peers, the order blocks are verified and applied in, when
// to hand over to consensus), the rule that sends a node that fell behind back to it, and the
// progress figures. Its wire is src/p2p/blocksync-wire.ts; its wiring streams/reactors/blocksync.ts.
export { fellBehind, isCaughtUp } from "./caught-up.js";
export type {
  BlockPoolEffect,
  BroadcastStatusRequest,
  CheckCommit,
  DropPeer,
  RequestBlock,
  SwitchToConsensus,
  VerifyAndApply,
} from "./effect.js";
export type { BlockPoolInput } from "./input.js";
export { type BlockPoolParams, DEFAULT_BLOCK_POOL_PARAMS } from "./params.js";
export {
  addProgressSample,
  PROGRESS_WINDOW_MS,
  type ProgressSample,
  type SyncProgress,
  syncProgress,
} from "./progress.js";
export { type BlockPoolTransition, blockPoolReducer, heldBlocks } from "./reducer.js";
export {
  type BlockPoolState,
  blocksWaiting,
  type CommitCheck,
  initialBlockPoolState,
  type KnownValidators,
  type PoolPeer,
  type PoolRequest,
  type PoolValidators,
  requestsInFlight,
  type VerifiedBlock,
} from "./state.js";
