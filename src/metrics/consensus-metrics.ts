// CometBFT v0.34's consensus metrics (subsystem "consensus"): names, types, help texts and labels
// as v0.34.35 declares them, so its dashboards and alerts work on rxbft unchanged.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { DEFAULT_BUCKETS, exponentialBucketsRange } from "./buckets.js";

export interface ConsensusMetrics {
  height: Gauge;
  validatorLastSignedHeight: Gauge<"validator_address">;
  rounds: Gauge;
  validators: Gauge;
  validatorsPower: Gauge;
  validatorPower: Gauge<"validator_address">;
  validatorMissedBlocks: Gauge<"validator_address">;
  missingValidators: Gauge;
  missingValidatorsPower: Gauge;
  byzantineValidators: Gauge;
  byzantineValidatorsPower: Gauge;
  blockIntervalSeconds: Histogram;
  numTxs: Gauge;
  blockSizeBytes: Gauge;
  totalTxs: Gauge;
  committedHeight: Gauge;
  fastSyncing: Gauge;
  stateSyncing: Gauge;
  blockParts: Counter<"peer_id">;
  stepDurationSeconds: Histogram<"step">;
  blockGossipPartsReceived: Counter<"matches_current">;
  quorumPrevoteMessageDelay: Gauge<"proposer_address">;
  fullPrevoteMessageDelay: Gauge<"proposer_address">;
}

export function createConsensusMetrics(registry: Registry, namespace: string): ConsensusMetrics {
  const name = (n: string) => `${namespace}_consensus_${n}`;
  const registers = [registry];
  const gauge = <L extends string = never>(n: string, help: string, labelNames: L[] = []) =>
    new Gauge<L>({ name: name(n), help, labelNames, registers });
  const counter = <L extends string = never>(n: string, help: string, labelNames: L[] = []) =>
    new Counter<L>({ name: name(n), help, labelNames, registers });
  return {
    height: gauge("height", "Height of the chain."),
    validatorLastSignedHeight: gauge("validator_last_signed_height", "Last signed height for a validator", [
      "validator_address",
    ]),
    rounds: gauge("rounds", "Number of rounds."),
    validators: gauge("validators", "Number of validators."),
    validatorsPower: gauge("validators_power", "Total power of all validators."),
    validatorPower: gauge("validator_power", "Power of a validator", ["validator_address"]),
    validatorMissedBlocks: gauge("validator_missed_blocks", "Total missed blocks for a validator", [
      "validator_address",
    ]),
    missingValidators: gauge("missing_validators", "Number of validators who did not sign."),
    missingValidatorsPower: gauge("missing_validators_power", "Total power of the missing validators."),
    byzantineValidators: gauge("byzantine_validators", "Number of validators who tried to double sign."),
    byzantineValidatorsPower: gauge("byzantine_validators_power", "Total power of the byzantine validators."),
    blockIntervalSeconds: new Histogram({
      name: name("block_interval_seconds"),
      help: "Time between this and the last block.",
      buckets: [...DEFAULT_BUCKETS],
      registers,
    }),
    numTxs: gauge("num_txs", "Number of transactions."),
    blockSizeBytes: gauge("block_size_bytes", "Size of the block."),
    totalTxs: gauge("total_txs", "Total number of transactions."),
    committedHeight: gauge("latest_block_height", "The latest block height."),
    fastSyncing: gauge("fast_syncing", "Whether or not a node is fast syncing. 1 if yes, 0 if no."),
    stateSyncing: gauge("state_syncing", "Whether or not a node is state syncing. 1 if yes, 0 if no."),
    blockParts: counter("block_parts", "Number of blockparts transmitted by peer.", ["peer_id"]),
    stepDurationSeconds: new Histogram({
      name: name("step_duration_seconds"),
      help: "Time spent per step.",
      labelNames: ["step"],
      buckets: exponentialBucketsRange(0.1, 100, 8),
      registers,
    }),
    blockGossipPartsReceived: counter(
      "block_gossip_parts_received",
      "Number of block parts received by the node, labeled by whether the part was relevant to the block the node was currently gathering or not.",
      ["matches_current"],
    ),
    quorumPrevoteMessageDelay: gauge(
      "quorum_prevote_message_delay",
      "Difference in seconds between the proposal timestamp and the timestamp of the latest prevote that achieved a quorum in the prevote step.",
      ["proposer_address"],
    ),
    fullPrevoteMessageDelay: gauge(
      "full_prevote_message_delay",
      "Difference in seconds between the proposal timestamp and the timestamp of the latest prevote that achieved 100% of the voting power in the prevote step.",
      ["proposer_address"],
    ),
  };
}
