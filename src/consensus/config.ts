// The [consensus] settings the reducer reads (reference §4.8), in milliseconds, and the timeout
// rule: the propose, prevote and precommit timeouts of round r are base + delta × r.
import { ConsensusError } from "./errors.js";

/**
 * Test-only switches that break one rule of the algorithm on purpose, so a simulation can show it
 * notices: "ignore-lock" prevotes the proposal whatever the lock (breaks L22/L28's lock check);
 * "precommit-without-polka" precommits the proposal as soon as it is prevoted (breaks L36).
 * Never set outside tests.
 */
export type TestOnlyBrokenRule = "ignore-lock" | "precommit-without-polka";

export interface ConsensusConfig {
  readonly timeoutProposeMs: number;
  readonly timeoutProposeDeltaMs: number;
  readonly timeoutPrevoteMs: number;
  readonly timeoutPrevoteDeltaMs: number;
  readonly timeoutPrecommitMs: number;
  readonly timeoutPrecommitDeltaMs: number;
  readonly timeoutCommitMs: number;
  readonly skipTimeoutCommit: boolean;
  readonly createEmptyBlocks: boolean;
  readonly createEmptyBlocksIntervalMs: number;
  readonly testOnlyBreakRule?: TestOnlyBrokenRule;
}

/** Tendermint v0.34's defaults. */
export const DEFAULT_CONSENSUS_CONFIG: ConsensusConfig = {
  timeoutProposeMs: 3000,
  timeoutProposeDeltaMs: 500,
  timeoutPrevoteMs: 1000,
  timeoutPrevoteDeltaMs: 500,
  timeoutPrecommitMs: 1000,
  timeoutPrecommitDeltaMs: 500,
  timeoutCommitMs: 1000,
  skipTimeoutCommit: false,
  createEmptyBlocks: true,
  createEmptyBlocksIntervalMs: 0,
};

export function timeoutProposeMs(config: ConsensusConfig, round: number): number {
  return config.timeoutProposeMs + config.timeoutProposeDeltaMs * round;
}

export function timeoutPrevoteMs(config: ConsensusConfig, round: number): number {
  return config.timeoutPrevoteMs + config.timeoutPrevoteDeltaMs * round;
}

export function timeoutPrecommitMs(config: ConsensusConfig, round: number): number {
  return config.timeoutPrecommitMs + config.timeoutPrecommitDeltaMs * round;
}

/** Whether round 0 waits for transactions before proposing (reference §4.8). */
export function waitsForTxs(config: ConsensusConfig): boolean {
  return !config.createEmptyBlocks || config.createEmptyBlocksIntervalMs > 0;
}

const DURATION_KEYS = [
  "timeoutProposeMs",
  "timeoutProposeDeltaMs",
  "timeoutPrevoteMs",
  "timeoutPrevoteDeltaMs",
  "timeoutPrecommitMs",
  "timeoutPrecommitDeltaMs",
  "timeoutCommitMs",
  "createEmptyBlocksIntervalMs",
] as const;

/** Throws CONSENSUS_BAD_CONFIG naming the first duration that is not a non-negative finite number. */
export function checkConsensusConfig(config: ConsensusConfig): ConsensusConfig {
  for (const key of DURATION_KEYS) {
    const value = config[key];
    if (!Number.isFinite(value) || value < 0) {
      throw new ConsensusError(
        "CONSENSUS_BAD_CONFIG",
        `consensus.${key} must be a non-negative number of ms, got ${value}`,
      );
    }
  }
  return config;
}
