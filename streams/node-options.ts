// What a caller of startNode (streams/node.ts) may choose: the CLI's `rxbft start` flags, and the
// injections tests use (scheduler, clock, rules that break an invariant, fold observers).
import type { SchedulerLike } from "rxjs";
import type { ConsensusRules } from "../src/consensus/rules.js";
import type { NodeEvent } from "./node-handle.js";
import type { FoldStep } from "./restart-fold.js";
import type { Clock } from "./sources/stamp-time.js";

export interface StartNodeOptions {
  /** Timers of consensus and the log's flush period (default asyncScheduler). */
  scheduler?: SchedulerLike;
  /** The log's clock (default: wall time, never going backwards). */
  clock?: Clock;
  /**
   * Every event the node publishes, from the first fold on (tests compare them with `rxbft replay
   * --events`; a subscriber of the handle's events$ joins only after the start).
   */
  onEvent?: (event: NodeEvent) => void;
  /** Every consensus fold, restart folds included (tests compare them with `rxbft replay`). */
  onConsensusStep?: (step: FoldStep) => void;
  /** Start the RPC server (default true). */
  rpc?: boolean;
  /** Force the RPC backend (tests). */
  rpcBackend?: "auto" | "uws" | "node";
  /** Worker threads of the verify pool (default 2; 0 verifies on the main thread). */
  verifyWorkers?: number;
  /** Aborts a start still waiting for a socket app to come up (Ctrl-C during start). */
  signal?: AbortSignal;
  /**
   * The in-process kvstore's retain_height policy: keep this many recent blocks (default 0: keep
   * all). The node prunes below Commit's retain_height (block-commit.ts), never below what
   * evidence or a restart still needs.
   */
  kvstoreRetainBlocks?: bigint;
  /**
   * The pure rules the consensus reducer is made with (default: src/consensus's). Tests inject
   * rules that break an invariant to prove the node halts safely on its own exception.
   */
  consensusRules?: ConsensusRules;
  /** --trace: log each upon-rule that fires, with its paper line, at debug level (rule-trace.ts). */
  trace?: boolean;
}
