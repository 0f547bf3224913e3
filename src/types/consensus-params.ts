// Consensus params: v0.34's defaults (reference §4.10), their validation, and applying the
// updates an app returns in EndBlock or InitChain. The hash lives in wire/hashes.ts.
import type { ConsensusParams as AbciConsensusParams } from "../wire/generated/tendermint/abci/types.js";
import type { ConsensusParams } from "../wire/generated/tendermint/types/params.js";
import { MAX_BLOCK_SIZE_BYTES } from "./block-limits.js";
import { TypesError } from "./errors.js";

export type { AbciConsensusParams, ConsensusParams };

export const PUB_KEY_TYPE_ED25519 = "ed25519";
export const PUB_KEY_TYPE_SECP256K1 = "secp256k1";
const KNOWN_PUB_KEY_TYPES = new Set([PUB_KEY_TYPE_ED25519, PUB_KEY_TYPE_SECP256K1]);

export function defaultConsensusParams(): ConsensusParams {
  return {
    block: { maxBytes: 22020096n, maxGas: -1n, timeIotaMs: 1000n },
    evidence: {
      maxAgeNumBlocks: 100000n,
      maxAgeDuration: { seconds: 172800n, nanos: 0 },
      maxBytes: 1048576n,
    },
    validator: { pubKeyTypes: [PUB_KEY_TYPE_ED25519] },
    version: { appVersion: 0n },
  };
}

function invalid(field: string, message: string): TypesError {
  return new TypesError(
    "TYPES_INVALID_PARAMS",
    `consensus_params.${field} ${message}`,
    `consensusParams.${field}`,
  );
}

/** ConsensusParams.ValidateBasic: throws TypesError naming the first bad field. */
export function validateConsensusParams(params: ConsensusParams): void {
  const { block, evidence, validator } = params;
  if (block.maxBytes <= 0n) throw invalid("block.max_bytes", `must be greater than 0, got ${block.maxBytes}`);
  if (block.maxBytes > BigInt(MAX_BLOCK_SIZE_BYTES))
    throw invalid("block.max_bytes", `must be at most ${MAX_BLOCK_SIZE_BYTES}, got ${block.maxBytes}`);
  if (block.maxGas < -1n) throw invalid("block.max_gas", `must be ≥ -1, got ${block.maxGas}`);
  if (block.timeIotaMs <= 0n)
    throw invalid("block.time_iota_ms", `must be greater than 0, got ${block.timeIotaMs}`);
  if (evidence.maxAgeNumBlocks <= 0n)
    throw invalid("evidence.max_age_num_blocks", `must be greater than 0, got ${evidence.maxAgeNumBlocks}`);
  const d = evidence.maxAgeDuration;
  if (d.seconds < 0n || (d.seconds === 0n && d.nanos <= 0))
    throw invalid("evidence.max_age_duration", `must be greater than 0, got ${d.seconds}s ${d.nanos}ns`);
  if (evidence.maxBytes > block.maxBytes)
    throw invalid(
      "evidence.max_bytes",
      `must be at most block.max_bytes (${block.maxBytes}), got ${evidence.maxBytes}`,
    );
  if (evidence.maxBytes < 0n)
    throw invalid("evidence.max_bytes", `must be non-negative, got ${evidence.maxBytes}`);
  if (validator.pubKeyTypes.length === 0)
    throw invalid("validator.pub_key_types", "must name at least one key type");
  validator.pubKeyTypes.forEach((t, i) => {
    if (!KNOWN_PUB_KEY_TYPES.has(t))
      throw invalid(`validator.pub_key_types[${i}]`, `is unknown: "${t}" (expected ed25519 or secp256k1)`);
  });
}

/**
 * The params after an app's update (ConsensusParams.Update): block max_bytes and max_gas,
 * the evidence fields, pub key types and app version are replaced where the update has them;
 * time_iota_ms is kept. The result is not validated: call validateConsensusParams.
 */
export function updateConsensusParams(
  params: ConsensusParams,
  update: AbciConsensusParams | undefined,
): ConsensusParams {
  if (update === undefined) return params;
  return {
    block: update.block
      ? { ...params.block, maxBytes: update.block.maxBytes, maxGas: update.block.maxGas }
      : params.block,
    evidence: update.evidence
      ? {
          maxAgeNumBlocks: update.evidence.maxAgeNumBlocks,
          maxAgeDuration: update.evidence.maxAgeDuration,
          maxBytes: update.evidence.maxBytes,
        }
      : params.evidence,
    validator: update.validator ? { pubKeyTypes: [...update.validator.pubKeyTypes] } : params.validator,
    version: update.version ? { appVersion: update.version.appVersion } : params.version,
  };
}

/** The ABCI form sent in InitChain: block carries max_bytes and max_gas only. */
export function toAbciConsensusParams(params: ConsensusParams): AbciConsensusParams {
  return {
    block: { maxBytes: params.block.maxBytes, maxGas: params.block.maxGas },
    evidence: params.evidence,
    validator: params.validator,
    version: params.version,
  };
}
