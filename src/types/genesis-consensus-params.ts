// Consensus parameters as genesis.json carries them: the defaults of Tendermint v0.34
// (types/params.go), the file form's codec (every field optional, missing ones defaulted), and
// the validation rules a node applies on load.
import * as t from "io-ts";
import { type DecodeProblem, expecting, int64String, Problem } from "./genesis-io-ts.js";

/** google.protobuf.Duration. */
export interface Duration {
  seconds: bigint;
  nanos: number;
}

/** tendermint.types.ConsensusParams (v0.34), in the generated data model's field names. */
export interface ConsensusParams {
  block: { maxBytes: bigint; maxGas: bigint; timeIotaMs: bigint };
  evidence: { maxAgeNumBlocks: bigint; maxAgeDuration: Duration; maxBytes: bigint };
  validator: { pubKeyTypes: string[] };
  version: { appVersion: bigint };
}

/** Largest block: 100 MiB. */
export const MAX_BLOCK_SIZE_BYTES = 104_857_600n;
/** Public key types a validator may use in v0.34. */
export const KNOWN_PUB_KEY_TYPES: readonly string[] = ["ed25519", "secp256k1"];

export function defaultConsensusParams(): ConsensusParams {
  return {
    block: { maxBytes: 22_020_096n, maxGas: -1n, timeIotaMs: 1000n },
    evidence: {
      maxAgeNumBlocks: 100_000n,
      maxAgeDuration: { seconds: 172_800n, nanos: 0 },
      maxBytes: 1_048_576n,
    },
    validator: { pubKeyTypes: ["ed25519"] },
    version: { appVersion: 0n },
  };
}

const pubKeyTypes = expecting<string[]>('an array of key type names like ["ed25519"]', (input) =>
  Array.isArray(input) && input.length <= 16 && input.every((entry) => typeof entry === "string")
    ? [...(input as string[])]
    : new Problem(),
);

/** The file form: `max_age_duration` is nanoseconds as a string, every field optional. */
export const consensusParamsFileCodec = t.partial(
  {
    block: t.partial(
      {
        max_bytes: int64String("22020096"),
        max_gas: int64String("-1"),
        time_iota_ms: int64String("1000"),
      },
      'an object like {"max_bytes": "22020096", "max_gas": "-1"}',
    ),
    evidence: t.partial(
      {
        max_age_num_blocks: int64String("100000"),
        max_age_duration: int64String("172800000000000"),
        max_bytes: int64String("1048576"),
      },
      'an object like {"max_age_num_blocks": "100000", "max_age_duration": "172800000000000"}',
    ),
    validator: t.partial({ pub_key_types: pubKeyTypes }, 'an object like {"pub_key_types": ["ed25519"]}'),
    version: t.partial({ app_version: int64String("0", 0n) }, 'an object like {"app_version": "0"}'),
  },
  "an object with block, evidence, validator and version",
);

export type ConsensusParamsFile = t.TypeOf<typeof consensusParamsFileCodec>;

/** Fills what the file leaves out with the defaults. */
export function consensusParamsFromFile(file: ConsensusParamsFile | undefined): ConsensusParams {
  const params = defaultConsensusParams();
  if (file === undefined) return params;
  const { block, evidence, validator, version } = file;
  if (block?.max_bytes !== undefined) params.block.maxBytes = block.max_bytes;
  if (block?.max_gas !== undefined) params.block.maxGas = block.max_gas;
  if (block?.time_iota_ms !== undefined) params.block.timeIotaMs = block.time_iota_ms;
  if (evidence?.max_age_num_blocks !== undefined)
    params.evidence.maxAgeNumBlocks = evidence.max_age_num_blocks;
  if (evidence?.max_age_duration !== undefined)
    params.evidence.maxAgeDuration = durationOfNanos(evidence.max_age_duration);
  if (evidence?.max_bytes !== undefined) params.evidence.maxBytes = evidence.max_bytes;
  if (validator?.pub_key_types !== undefined) params.validator.pubKeyTypes = validator.pub_key_types;
  if (version?.app_version !== undefined) params.version.appVersion = version.app_version;
  return params;
}

/** Tendermint's ValidateConsensusParams, as problems at file-form paths (under `prefix`). */
export function validateConsensusParams(
  params: ConsensusParams,
  prefix = "consensus_params",
): DecodeProblem[] {
  const problems: DecodeProblem[] = [];
  const at = (path: string, expected: string, actual: unknown) =>
    problems.push({ path: `${prefix}.${path}`, expected, actual });
  const { block, evidence, validator } = params;
  if (block.maxBytes <= 0n || block.maxBytes > MAX_BLOCK_SIZE_BYTES) {
    at("block.max_bytes", `a size in 1…${MAX_BLOCK_SIZE_BYTES} bytes`, block.maxBytes.toString());
  }
  if (block.maxGas < -1n) at("block.max_gas", "-1 (no limit) or a gas amount ≥ 0", block.maxGas.toString());
  if (block.timeIotaMs <= 0n)
    at("block.time_iota_ms", "a positive number of milliseconds", block.timeIotaMs.toString());
  if (evidence.maxAgeNumBlocks <= 0n) {
    at("evidence.max_age_num_blocks", "a positive number of blocks", evidence.maxAgeNumBlocks.toString());
  }
  const ageNanos = nanosOfDuration(evidence.maxAgeDuration);
  if (ageNanos <= 0n)
    at("evidence.max_age_duration", "a positive duration in nanoseconds", ageNanos.toString());
  if (evidence.maxBytes < 0n || evidence.maxBytes > block.maxBytes) {
    at("evidence.max_bytes", `a size in 0…block.max_bytes (${block.maxBytes})`, evidence.maxBytes.toString());
  }
  if (validator.pubKeyTypes.length === 0) {
    at("validator.pub_key_types", 'at least one key type, like ["ed25519"]', validator.pubKeyTypes);
  }
  validator.pubKeyTypes.forEach((type, index) => {
    if (!KNOWN_PUB_KEY_TYPES.includes(type)) {
      at(
        `validator.pub_key_types[${index}]`,
        `one of ${KNOWN_PUB_KEY_TYPES.map((k) => `"${k}"`).join(", ")}`,
        type,
      );
    }
  });
  return problems;
}

export function durationOfNanos(nanos: bigint): Duration {
  return { seconds: nanos / 1_000_000_000n, nanos: Number(nanos % 1_000_000_000n) };
}

export function nanosOfDuration(duration: Duration): bigint {
  return duration.seconds * 1_000_000_000n + BigInt(duration.nanos);
}

/** The file form (and Tendermint's RPC form) of the params: every int64 as a string. */
export function consensusParamsToFileJson(params: ConsensusParams): Record<string, unknown> {
  return {
    block: {
      max_bytes: params.block.maxBytes.toString(),
      max_gas: params.block.maxGas.toString(),
      time_iota_ms: params.block.timeIotaMs.toString(),
    },
    evidence: {
      max_age_num_blocks: params.evidence.maxAgeNumBlocks.toString(),
      max_age_duration: nanosOfDuration(params.evidence.maxAgeDuration).toString(),
      max_bytes: params.evidence.maxBytes.toString(),
    },
    validator: { pub_key_types: [...params.validator.pubKeyTypes] },
    // app_version is a uint64 with omitempty: `{}` when 0.
    version: params.version.appVersion === 0n ? {} : { app_version: params.version.appVersion.toString() },
  };
}
