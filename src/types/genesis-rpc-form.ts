// The result of the `genesis` RPC route in either of rxbft's two forms (rpc.compat):
// "tendermint" is v0.34's JSON exactly; "seed" is the specification's, whose consensus params
// read `evidence {max_age}` with v0.34's evidence fields added beside it, and which always has
// `validators` and `app_state`.

import { upperHex } from "../bytes.js";
import type { GenesisDoc } from "./genesis.js";
import { consensusParamsToFileJson, nanosOfDuration } from "./genesis-consensus-params.js";
import { formatRfc3339Nano } from "./genesis-time.js";
import { pubKeyToJson } from "./key-file-json-keys.js";

export type RpcForm = "seed" | "tendermint";

/** The `genesis` field of the RPC result (a JSON-ready object; key order is the output order). */
export function genesisToRpcForm(doc: GenesisDoc, form: RpcForm): Record<string, unknown> {
  const prefix = form === "tendermint" ? "tendermint" : "node";
  const validators = doc.validators.map((validator) => ({
    address: upperHex(validator.address),
    pub_key: pubKeyToJson(validator.pubKey, prefix),
    power: validator.power.toString(),
    name: validator.name,
  }));
  const result: Record<string, unknown> = {
    genesis_time: formatRfc3339Nano(doc.genesisTime),
    chain_id: doc.chainId,
    initial_height: doc.initialHeight.toString(),
    consensus_params:
      form === "tendermint" ? consensusParamsToFileJson(doc.consensusParams) : seedParams(doc),
  };
  // v0.34 omits an empty validator list and an absent app_state (omitempty); the seed form keeps both.
  if (form === "seed" || validators.length > 0) result.validators = validators;
  result.app_hash = upperHex(doc.appHash);
  if (doc.appState !== undefined) result.app_state = doc.appState;
  else if (form === "seed") result.app_state = {};
  return result;
}

function seedParams(doc: GenesisDoc): Record<string, unknown> {
  const { block, evidence, validator, version } = doc.consensusParams;
  return {
    block: {
      max_bytes: block.maxBytes.toString(),
      max_gas: block.maxGas.toString(),
      time_iota_ms: block.timeIotaMs.toString(),
    },
    evidence: {
      // The specification's older name for the age in blocks.
      max_age: evidence.maxAgeNumBlocks.toString(),
      max_age_num_blocks: evidence.maxAgeNumBlocks.toString(),
      max_age_duration: nanosOfDuration(evidence.maxAgeDuration).toString(),
      max_bytes: evidence.maxBytes.toString(),
    },
    validator: { pub_key_types: [...validator.pubKeyTypes] },
    version: version.appVersion === 0n ? {} : { app_version: version.appVersion.toString() },
  };
}
