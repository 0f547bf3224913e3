// The `data.value` of WebSocket events (reference §1.5) in either form. The tendermint form
// writes v0.34's EventData structs through the plain codec: ABCI responses with omitempty (the
// Tx event's result drops zero fields), Go's untagged field names `TxResult` and `Vote`, and
// validator updates as types.Validator JSON.

import {
  abciConsensusParamsJson,
  deliverTxJson,
  deliverTxPlainJson,
  type EventInput,
  eventJsonPlain,
  eventListJson,
  validatorUpdateJson,
} from "../../rpc/json/json-abci.js";
import { blockIdJson, blockJson, evidenceJson, headerJson, voteJson } from "../../rpc/json/json-block.js";
import type { JsonForm } from "../../rpc/json/json-form.js";
import { base64, hexUpper, int64 } from "../../rpc/json/json-primitives.js";
import { plainJson } from "../../rpc/json/json-results.js";
import type { JsonValue } from "../../rpc/json/json-text.js";
import { validatorJson } from "../../rpc/json/json-validator.js";
import type { TxResult } from "../../wire/generated/tendermint/abci/types.js";

type Data = Record<string, unknown>;

function beginBlockJson(r: { events?: EventInput[] } | undefined, form: JsonForm): JsonValue {
  const events = r?.events ?? [];
  if (form === "seed") return { events: eventListJson(events, form) };
  return { events: events.length === 0 ? undefined : events.map(eventJsonPlain) };
}

function endBlockJson(r: Data | undefined, form: JsonForm): JsonValue {
  const updates = (r?.validatorUpdates ?? []) as Parameters<typeof validatorUpdateJson>[0][];
  const events = (r?.events ?? []) as EventInput[];
  const params = r?.consensusParamUpdates as Parameters<typeof abciConsensusParamsJson>[0];
  if (form === "seed") {
    return {
      validator_updates: updates.map((u) => validatorUpdateJson(u, form)),
      consensus_param_updates: abciConsensusParamsJson(params, form),
      events: eventListJson(events, form),
    };
  }
  return {
    // no omitempty on this non-nullable repeated field in v0.34: null when empty
    validator_updates: updates.length === 0 ? null : updates.map((u) => validatorUpdateJson(u, form)),
    consensus_param_updates: params === undefined ? undefined : abciConsensusParamsJson(params, form),
    events: events.length === 0 ? undefined : events.map(eventJsonPlain),
  };
}

function txResultJson(t: TxResult, form: JsonForm): JsonValue {
  if (form === "seed") {
    return {
      height: int64(t.height),
      index: t.index,
      tx: base64(t.tx),
      result: deliverTxJson(t.result, form),
    };
  }
  // abci.TxResult through the plain codec: every field omitempty.
  return {
    height: t.height === 0n ? undefined : int64(t.height),
    index: t.index === 0 ? undefined : t.index,
    tx: t.tx.length === 0 ? undefined : base64(t.tx),
    result: deliverTxPlainJson(t.result),
  };
}

const EVENT_ENCODERS: Record<string, (d: Data, form: JsonForm) => JsonValue> = {
  NewBlock: (d, form) => ({
    block: blockJson(d.block as Parameters<typeof blockJson>[0], form),
    result_begin_block: beginBlockJson(d.resultBeginBlock as { events?: EventInput[] }, form),
    result_end_block: endBlockJson(d.resultEndBlock as Data, form),
  }),
  NewBlockHeader: (d, form) => ({
    header: headerJson(d.header as Parameters<typeof headerJson>[0], form),
    num_txs: int64(d.numTxs as bigint),
    result_begin_block: beginBlockJson(d.resultBeginBlock as { events?: EventInput[] }, form),
    result_end_block: endBlockJson(d.resultEndBlock as Data, form),
  }),
  Tx: (d, form) => ({ TxResult: txResultJson(d.txResult as TxResult, form) }),
  Vote: (d) => ({ Vote: voteJson(d.vote as Parameters<typeof voteJson>[0]) }),
  ValidatorSetUpdates: (d, form) => ({
    validator_updates: ((d.validatorUpdates ?? []) as Parameters<typeof validatorJson>[0][]).map((v) =>
      validatorJson(v, form),
    ),
  }),
  NewEvidence: (d, form) => ({
    evidence: evidenceJson(d.evidence as Parameters<typeof evidenceJson>[0], form),
    height: int64(d.height as bigint),
  }),
  NewRound: (d) => ({
    ...roundState(d),
    proposer: {
      address: hexUpper((d.proposer as { address: Uint8Array }).address),
      index: (d.proposer as { index: number }).index,
    },
  }),
  CompleteProposal: (d) => ({
    ...roundState(d),
    block_id: blockIdJson(d.blockId as Parameters<typeof blockIdJson>[0]),
  }),
};

function roundState(d: Data): { height: string; round: number; step: string } {
  return { height: int64(d.height as bigint), round: d.round as number, step: String(d.step) };
}

/** `data.value` of an event, by its Tendermint name. */
export function eventValueJson(type: string, data: unknown, form: JsonForm): JsonValue {
  if (data === null || typeof data !== "object") return plainJson(data);
  const encode = EVENT_ENCODERS[type];
  if (encode !== undefined) return encode(data as Data, form);
  const d = data as Data;
  // NewRoundStep, TimeoutPropose, TimeoutWait, Polka, Lock, Unlock, Relock, ValidBlock.
  if ("height" in d && "round" in d && "step" in d) return roundState(d);
  return plainJson(data);
}
