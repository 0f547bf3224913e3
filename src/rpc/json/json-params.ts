// Consensus params, RPC form (consensus_params route): v0.34's tmproto.ConsensusParams through
// the plain codec (scalars omitempty, so app_version 0 gives `"version":{}`), or the seed's
// `block {max_bytes, max_gas, time_iota_ms}`, `evidence {max_age}` with v0.34's evidence fields
// beside it, `validator {pub_key_types}`, all strings.

import type { JsonForm } from "../../rpc/json/json-form.js";
import { int64 } from "../../rpc/json/json-primitives.js";
import type { JsonValue } from "../../rpc/json/json-text.js";
import type { ConsensusParams } from "../../wire/generated/tendermint/types/params.js";

function durationNanos(d: { seconds: bigint; nanos: number } | undefined): bigint {
  return d === undefined ? 0n : d.seconds * 1_000_000_000n + BigInt(d.nanos);
}

export function consensusParamsJson(p: ConsensusParams, form: JsonForm): JsonValue {
  const age = durationNanos(p.evidence?.maxAgeDuration);
  if (form === "tendermint") {
    const nz = (v: bigint | undefined) => (v === undefined || v === 0n ? undefined : int64(v));
    const types = p.validator?.pubKeyTypes ?? [];
    return {
      block: {
        max_bytes: nz(p.block?.maxBytes),
        max_gas: nz(p.block?.maxGas),
        time_iota_ms: nz(p.block?.timeIotaMs),
      },
      evidence: {
        max_age_num_blocks: nz(p.evidence?.maxAgeNumBlocks),
        max_age_duration: int64(age),
        max_bytes: nz(p.evidence?.maxBytes),
      },
      validator: { pub_key_types: types.length === 0 ? undefined : [...types] },
      version: { app_version: nz(p.version?.appVersion) },
    };
  }
  const appVersion = p.version?.appVersion ?? 0n;
  return {
    block: {
      max_bytes: int64(p.block?.maxBytes),
      max_gas: int64(p.block?.maxGas),
      time_iota_ms: int64(p.block?.timeIotaMs),
    },
    evidence: {
      max_age: int64(p.evidence?.maxAgeNumBlocks),
      max_age_num_blocks: int64(p.evidence?.maxAgeNumBlocks),
      max_age_duration: int64(age),
      max_bytes: int64(p.evidence?.maxBytes),
    },
    validator: { pub_key_types: [...(p.validator?.pubKeyTypes ?? [])] },
    // As the seed genesis form writes it (src/types/genesis-rpc-form.ts).
    version: appVersion === 0n ? {} : { app_version: int64(appVersion) },
  };
}
