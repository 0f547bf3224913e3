// ABCI values in JSON. v0.34 writes them three ways, and each has its place:
// - jsonpb with EmitDefaults (every field, int64 as strings, empty bytes as null, lowerCamel names
//   where the proto gives no json_name): ResponseCheckTx, ResponseDeliverTx, ResponseQuery and
//   EventAttribute reached through addressable values (most RPC results);
// - the plain codec with gogo's omitempty tags: events outside those responses
//   (begin_block_events …), ResponseInfo, validator updates, and the Tx event's result;
// - the seed form: every field, code as a decimal string, bytes as base64 text.

import type { JsonForm } from "../../rpc/json/json-form.js";
import { protoPubKeyJson, pubKeyJson } from "../../rpc/json/json-keys.js";
import { base64, base64OrNull, bytesOf, hexUpper, int64 } from "../../rpc/json/json-primitives.js";
import type { JsonValue } from "../../rpc/json/json-text.js";
import type {
  ConsensusParams as AbciConsensusParams,
  ResponseCheckTx,
  ResponseDeliverTx,
  ResponseInfo,
  ResponseQuery,
  ValidatorUpdate,
} from "../../wire/generated/tendermint/abci/types.js";
import { ProofOps } from "../../wire/generated/tendermint/crypto/proof.js";

type Bytes = Uint8Array | string;
/** Attribute keys and values are bytes in v0.34; text is accepted and taken as UTF-8. */
export interface AttributeInput {
  key: Bytes;
  value: Bytes;
  index: boolean;
}
export interface EventInput {
  type: string;
  attributes: readonly AttributeInput[];
}

const utf8Bytes = (b: Bytes): Uint8Array => (typeof b === "string" ? new TextEncoder().encode(b) : b);

/** jsonpb's EventAttribute (both forms write the same three fields). */
export function attributeJson(a: AttributeInput, form: JsonForm): JsonValue {
  return form === "tendermint"
    ? { key: base64OrNull(utf8Bytes(a.key)), value: base64OrNull(utf8Bytes(a.value)), index: a.index }
    : { key: base64(utf8Bytes(a.key)), value: base64(utf8Bytes(a.value)), index: a.index };
}

/** An event inside a jsonpb response: type and attributes always present. */
function eventJsonpb(e: EventInput): JsonValue {
  return { type: e.type, attributes: e.attributes.map((a) => attributeJson(a, "tendermint")) };
}

/** An event through the plain codec: `type` and `attributes` are omitempty. */
export function eventJsonPlain(e: EventInput): JsonValue {
  return {
    type: e.type === "" ? undefined : e.type,
    attributes:
      e.attributes.length === 0 ? undefined : e.attributes.map((a) => attributeJson(a, "tendermint")),
  };
}

export function eventJsonSeed(e: EventInput): JsonValue {
  return { type: e.type, attributes: e.attributes.map((a) => attributeJson(a, "seed")) };
}

/** A list of events at the top of a result: null when empty in v0.34 (a nil slice). */
export function eventListJson(events: readonly EventInput[] | undefined, form: JsonForm): JsonValue {
  const list = events ?? [];
  if (form === "seed") return list.map(eventJsonSeed);
  return list.length === 0 ? null : list.map(eventJsonPlain);
}

type TxResponse = Partial<ResponseDeliverTx> & { events?: readonly EventInput[] };

/** ResponseDeliverTx (and the DeliverTx-shaped part of CheckTx) in the form's shape. */
export function deliverTxJson(r: TxResponse | undefined, form: JsonForm): JsonValue {
  const x = r ?? {};
  const events = x.events ?? [];
  if (form === "tendermint") {
    return {
      code: x.code ?? 0,
      data: base64OrNull(x.data),
      log: x.log ?? "",
      info: x.info ?? "",
      gas_wanted: int64(x.gasWanted),
      gas_used: int64(x.gasUsed),
      events: events.map(eventJsonpb),
      codespace: x.codespace ?? "",
    };
  }
  return {
    code: String(x.code ?? 0),
    data: base64(x.data),
    log: x.log ?? "",
    info: x.info ?? "",
    gas_wanted: int64(x.gasWanted),
    gas_used: int64(x.gasUsed),
    events: events.map(eventJsonSeed),
    codespace: x.codespace ?? "",
  };
}

/** ResponseDeliverTx through the plain codec (the Tx event's `result`): zero fields left out. */
export function deliverTxPlainJson(r: TxResponse | undefined): JsonValue {
  const x = r ?? {};
  const events = x.events ?? [];
  const gasWanted = x.gasWanted ?? 0n;
  const gasUsed = x.gasUsed ?? 0n;
  return {
    code: x.code ? x.code : undefined,
    data: x.data && x.data.length > 0 ? base64(x.data) : undefined,
    log: x.log ? x.log : undefined,
    info: x.info ? x.info : undefined,
    gas_wanted: gasWanted === 0n ? undefined : int64(gasWanted),
    gas_used: gasUsed === 0n ? undefined : int64(gasUsed),
    events: events.length === 0 ? undefined : events.map(eventJsonPlain),
    codespace: x.codespace ? x.codespace : undefined,
  };
}

type CheckTxResponse = Partial<ResponseCheckTx> & { events?: readonly EventInput[] };

/** ResponseCheckTx: DeliverTx's fields, then v0.34's sender, priority and mempoolError. */
export function checkTxJson(r: CheckTxResponse | undefined, form: JsonForm): JsonValue {
  const x = r ?? {};
  const base = deliverTxJson(x, form) as Record<string, JsonValue>;
  return { ...base, sender: x.sender ?? "", priority: int64(x.priority), mempoolError: x.mempoolError ?? "" };
}

/** The seed form's `tx_result` of the tx route: {log, gas_wanted, gas_used, tags} then v0.34's fields. */
export function seedTxResultJson(r: TxResponse | undefined): JsonValue {
  const x = r ?? {};
  const events = x.events ?? [];
  return {
    log: x.log ?? "",
    gas_wanted: int64(x.gasWanted),
    gas_used: int64(x.gasUsed),
    tags: events.flatMap((e) => e.attributes.map((a) => attributeJson(a, "seed"))),
    code: String(x.code ?? 0),
    data: base64(x.data),
    info: x.info ?? "",
    events: events.map(eventJsonSeed),
    codespace: x.codespace ?? "",
  };
}

/** ResponseInfo through the plain codec (every field omitempty); the seed form writes all. */
export function infoJson(r: Partial<ResponseInfo>, form: JsonForm): JsonValue {
  const appVersion = r.appVersion ?? 0n;
  const height = r.lastBlockHeight ?? 0n;
  if (form === "seed") {
    return {
      data: r.data ?? "",
      version: r.version ?? "",
      app_version: int64(appVersion),
      last_block_height: int64(height),
      last_block_app_hash: base64(r.lastBlockAppHash),
    };
  }
  return {
    data: r.data ? r.data : undefined,
    version: r.version ? r.version : undefined,
    app_version: appVersion === 0n ? undefined : int64(appVersion),
    last_block_height: height === 0n ? undefined : int64(height),
    last_block_app_hash:
      r.lastBlockAppHash && r.lastBlockAppHash.length > 0 ? base64(r.lastBlockAppHash) : undefined,
  };
}

function proofOpsJson(ops: ProofOps | undefined): JsonValue {
  if (ops === undefined) return null;
  return {
    ops: ops.ops.map((op) => ({ type: op.type, key: base64OrNull(op.key), data: base64OrNull(op.data) })),
  };
}

/** ResponseQuery: jsonpb in v0.34; in the seed form every field a string, key/value/proof hex. */
export function queryJson(r: Partial<ResponseQuery>, form: JsonForm): JsonValue {
  if (form === "tendermint") {
    return {
      code: r.code ?? 0,
      log: r.log ?? "",
      info: r.info ?? "",
      index: int64(r.index),
      key: base64OrNull(r.key),
      value: base64OrNull(r.value),
      proofOps: proofOpsJson(r.proofOps),
      height: int64(r.height),
      codespace: r.codespace ?? "",
    };
  }
  const proof = r.proofOps === undefined ? "" : hexUpper(ProofOps.encode(r.proofOps).finish());
  return {
    log: r.log ?? "",
    height: int64(r.height),
    proof,
    value: hexUpper(r.value),
    key: hexUpper(r.key),
    index: int64(r.index),
    code: String(r.code ?? 0),
    info: r.info ?? "",
    codespace: r.codespace ?? "",
  };
}

/** ABCI ValidatorUpdate: `{"pub_key":{"Sum":…},"power":"10"}` (power omitempty) or the seed's `{pub_key, power}`. */
export function validatorUpdateJson(u: ValidatorUpdate, form: JsonForm): JsonValue {
  if (form === "seed") return { pub_key: pubKeyJson(u.pubKey, "seed"), power: int64(u.power) };
  return { pub_key: protoPubKeyJson(u.pubKey), power: u.power === 0n ? undefined : int64(u.power) };
}

/** abci.ConsensusParams (block_results' updates): every part and scalar omitempty in v0.34. */
export function abciConsensusParamsJson(p: AbciConsensusParams | undefined, form: JsonForm): JsonValue {
  if (p === undefined) return null;
  const nz = (v: bigint | undefined) => (v === undefined || v === 0n ? undefined : int64(v));
  const durationNanos = (d: { seconds: bigint; nanos: number } | undefined) =>
    d === undefined ? 0n : d.seconds * 1_000_000_000n + BigInt(d.nanos);
  if (form === "tendermint") {
    return {
      block: p.block && { max_bytes: nz(p.block.maxBytes), max_gas: nz(p.block.maxGas) },
      evidence: p.evidence && {
        max_age_num_blocks: nz(p.evidence.maxAgeNumBlocks),
        max_age_duration: int64(durationNanos(p.evidence.maxAgeDuration)),
        max_bytes: nz(p.evidence.maxBytes),
      },
      validator: p.validator && {
        pub_key_types: p.validator.pubKeyTypes.length === 0 ? undefined : [...p.validator.pubKeyTypes],
      },
      version: p.version && { app_version: nz(p.version.appVersion) },
    };
  }
  return {
    block: p.block && { max_bytes: int64(p.block.maxBytes), max_gas: int64(p.block.maxGas) },
    evidence: p.evidence && {
      max_age: int64(p.evidence.maxAgeNumBlocks),
      max_age_num_blocks: int64(p.evidence.maxAgeNumBlocks),
      max_age_duration: int64(durationNanos(p.evidence.maxAgeDuration)),
      max_bytes: int64(p.evidence.maxBytes),
    },
    validator: p.validator && { pub_key_types: [...p.validator.pubKeyTypes] },
    version: p.version && { app_version: int64(p.version.appVersion) },
  };
}

export { bytesOf };
