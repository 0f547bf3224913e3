// genesis.json: the chain's starting point. The file form is decoded with io-ts and checked the
// way Tendermint v0.34's ValidateAndComplete does (chain_id, initial_height, params, validators),
// then normalised into the domain form GenesisDoc (bigint, Uint8Array, Timestamp).
import { readFileSync, statSync } from "node:fs";
import * as t from "io-ts";
import { upperHex } from "../bytes.js";
import { addressOf } from "../crypto/hash.js";
import { topLevelMemberSpan } from "./genesis-app-state.js";
import {
  type ConsensusParams,
  consensusParamsFileCodec,
  consensusParamsFromFile,
  consensusParamsToFileJson,
  validateConsensusParams,
} from "./genesis-consensus-params.js";
import { GenesisError } from "./genesis-errors.js";
import {
  type DecodeProblem,
  expecting,
  hexBytes,
  int64String,
  isJsonObject,
  Problem,
  problemsOf,
  renderProblem,
} from "./genesis-io-ts.js";
import {
  formatRfc3339Nano,
  parseRfc3339,
  type Timestamp,
  timestampNow,
  ZERO_TIME_SECONDS,
} from "./genesis-time.js";
import { writeFileAtomic } from "./key-file-atomic-write.js";
import { pubKeyEd25519Json, pubKeyToJson } from "./key-file-json-keys.js";

/** chain_id must be shorter than this (Tendermint: at most 50; the specification: fewer than 50). */
export const MAX_CHAIN_ID_LENGTH = 49;
/** Total voting power may not exceed (2^63 − 1) / 8, so proposer priorities cannot overflow. */
export const MAX_TOTAL_VOTING_POWER = ((1n << 63n) - 1n) / 8n;
/** Largest genesis file read (Cosmos genesis files reach hundreds of MB). */
export const MAX_GENESIS_FILE_BYTES = 500 * 1024 * 1024;
/** Largest number of genesis validators accepted. */
export const MAX_GENESIS_VALIDATORS = 10_000;
const MAX_NAME_LENGTH = 1024;

export interface GenesisValidator {
  /** First 20 bytes of sha256(pubKey). */
  address: Uint8Array;
  /** 32-byte ed25519 public key (the only validator key type rxbft accepts). */
  pubKey: Uint8Array;
  /** Voting power, 0 … 2^63 − 1 (the specification's range). */
  power: bigint;
  name: string;
}

export interface GenesisDoc {
  genesisTime: Timestamp;
  chainId: string;
  /** ≥ 1; a file's "0" or missing value means 1. */
  initialHeight: bigint;
  consensusParams: ConsensusParams;
  validators: GenesisValidator[];
  appHash: Uint8Array;
  /** app_state parsed; undefined when the file has none. */
  appState?: unknown;
  /** The file's own bytes of app_state (what InitChain sends); empty when absent. */
  appStateBytes: Uint8Array;
}

export interface GenesisOptions {
  /** The time a zero or missing genesis_time becomes; defaults to the wall clock. */
  now?: () => Timestamp;
}

const genesisTime = expecting<Timestamp, string>(
  'an RFC 3339 time like "2026-01-01T00:00:00.000000000Z"',
  (input) => (typeof input === "string" ? (parseRfc3339(input) ?? new Problem()) : new Problem()),
  formatRfc3339Nano,
);

const chainId = expecting<string>(
  `a non-empty string of at most ${MAX_CHAIN_ID_LENGTH} characters`,
  (input) => {
    if (typeof input !== "string" || input.length === 0) return new Problem();
    return input.length > MAX_CHAIN_ID_LENGTH ? new Problem(`${input.length} characters`) : input;
  },
);

const validatorName = expecting<string>(`a string of at most ${MAX_NAME_LENGTH} characters`, (input) =>
  typeof input === "string" && input.length <= MAX_NAME_LENGTH ? input : new Problem(),
);

const validatorCodec = t.intersection([
  t.type(
    { pub_key: pubKeyEd25519Json, power: int64String("10", 0n) },
    'a validator like {"pub_key": {...}, "power": "10"}',
  ),
  t.partial({ address: hexBytes(20), name: validatorName }),
]);

const validators = expecting<unknown[]>(
  `an array of at most ${MAX_GENESIS_VALIDATORS} validators`,
  // null is what Go writes for an empty list: no validators (the app sets them at InitChain).
  (input) =>
    input === null
      ? []
      : Array.isArray(input) && input.length <= MAX_GENESIS_VALIDATORS
        ? input
        : new Problem(),
);

const fileCodec = t.intersection([
  t.type({ chain_id: chainId }, "a JSON object with at least chain_id"),
  t.partial({
    genesis_time: genesisTime,
    initial_height: int64String("1", 0n),
    consensus_params: consensusParamsFileCodec,
    validators,
    app_hash: hexBytes(),
  }),
]);

/** Reads and validates a genesis file. Errors name the file, the JSON path and the expectation. */
export function parseGenesisFile(path: string, options?: GenesisOptions): GenesisDoc {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_GENESIS_FILE_BYTES) {
      throw new GenesisError(
        "GENESIS_UNREADABLE",
        path,
        "",
        `${path}: ${size} bytes is larger than the ${MAX_GENESIS_FILE_BYTES}-byte limit`,
      );
    }
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof GenesisError) throw error;
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : (error as Error).message;
    throw new GenesisError("GENESIS_UNREADABLE", path, "", `${path}: cannot read genesis: ${reason}`, {
      cause: error,
    });
  }
  return genesisFromJson(text, path, options);
}

/** Validates genesis JSON text; `sourceName` names it in errors. */
export function genesisFromJson(text: string, sourceName: string, options: GenesisOptions = {}): GenesisDoc {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new GenesisError(
      "GENESIS_NOT_JSON",
      sourceName,
      "",
      `${sourceName}: expected a JSON object, got text that is not JSON (${(error as Error).message})`,
    );
  }
  if (!isJsonObject(json)) {
    throw invalid(sourceName, { path: "", expected: "a JSON object", actual: json });
  }
  const decoded = fileCodec.decode(json);
  if (decoded._tag === "Left") {
    const [first] = problemsOf(decoded.left);
    throw invalid(sourceName, first ?? { path: "", expected: "a genesis document", actual: json });
  }
  const file = decoded.right;

  const genesisValidators = decodeValidators(sourceName, file.validators ?? []);
  const consensusParams = consensusParamsFromFile(file.consensus_params);
  const [paramsProblem] = validateConsensusParams(consensusParams);
  if (paramsProblem) throw invalid(sourceName, paramsProblem);

  let time = file.genesis_time;
  if (time === undefined || (time.seconds === ZERO_TIME_SECONDS && time.nanos === 0)) {
    time = (options.now ?? timestampNow)();
  }
  const doc: GenesisDoc = {
    genesisTime: time,
    chainId: file.chain_id,
    initialHeight: file.initial_height === undefined || file.initial_height === 0n ? 1n : file.initial_height,
    consensusParams,
    validators: genesisValidators,
    appHash: file.app_hash ?? new Uint8Array(),
    appStateBytes: new Uint8Array(),
  };
  const appState = json.app_state;
  if (appState !== undefined && appState !== null) {
    doc.appState = appState;
    const span = topLevelMemberSpan(text, "app_state");
    doc.appStateBytes = new Uint8Array(
      Buffer.from(span ? text.slice(span[0], span[1]) : JSON.stringify(appState), "utf8"),
    );
  }
  return doc;
}

function decodeValidators(sourceName: string, entries: unknown[]): GenesisValidator[] {
  const result: GenesisValidator[] = [];
  const seen = new Map<string, number>();
  let total = 0n;
  entries.forEach((entry, index) => {
    const path = `validators[${index}]`;
    const decoded = validatorCodec.decode(entry);
    if (decoded._tag === "Left") {
      const [first] = problemsOf(decoded.left);
      const problem = first ?? { path: "", expected: "a validator", actual: entry };
      throw invalid(sourceName, { ...problem, path: problem.path === "" ? path : `${path}.${problem.path}` });
    }
    const { pub_key, power, address, name } = decoded.right;
    const derived = addressOf(pub_key.value);
    if (address !== undefined && !Buffer.from(address).equals(Buffer.from(derived))) {
      throw invalid(sourceName, {
        path: `${path}.address`,
        expected: `${upperHex(derived)} (the first 20 bytes of sha256 of pub_key)`,
        actual: upperHex(address),
      });
    }
    const key = upperHex(derived);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw invalid(sourceName, {
        path: `${path}.pub_key`,
        expected: `a key not already used by validators[${earlier}]`,
        actual: pub_key.value && Buffer.from(pub_key.value).toString("base64"),
      });
    }
    seen.set(key, index);
    total += power;
    if (total > MAX_TOTAL_VOTING_POWER) {
      throw invalid(sourceName, {
        path: `${path}.power`,
        expected: `a total voting power of at most ${MAX_TOTAL_VOTING_POWER} ((2^63 − 1) / 8)`,
        actual: power.toString(),
        detail: `the total reaches ${total} here`,
      });
    }
    result.push({ address: derived, pubKey: pub_key.value, power, name: name ?? "" });
  });
  return result;
}

function invalid(sourceName: string, problem: DecodeProblem): GenesisError {
  return new GenesisError("GENESIS_INVALID", sourceName, problem.path, renderProblem(sourceName, problem));
}

/** The file form of a genesis document, in Tendermint's key order. */
export function genesisToFileJson(doc: GenesisDoc): Record<string, unknown> {
  const json: Record<string, unknown> = {
    genesis_time: formatRfc3339Nano(doc.genesisTime),
    chain_id: doc.chainId,
    initial_height: doc.initialHeight.toString(),
    consensus_params: consensusParamsToFileJson(doc.consensusParams),
    validators: doc.validators.map((validator) => ({
      address: upperHex(validator.address),
      pub_key: pubKeyToJson(validator.pubKey),
      power: validator.power.toString(),
      name: validator.name,
    })),
    app_hash: upperHex(doc.appHash),
  };
  if (doc.appState !== undefined) json.app_state = doc.appState;
  return json;
}

/** genesis.json's text: indented by two spaces, as init writes it. */
export function genesisFileText(doc: GenesisDoc): string {
  return `${JSON.stringify(genesisToFileJson(doc), null, 2)}\n`;
}

/** Writes genesis.json atomically (mode 0644: it is public). */
export function writeGenesisFile(path: string, doc: GenesisDoc): void {
  writeFileAtomic(path, genesisFileText(doc), 0o644);
}
