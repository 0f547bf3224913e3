// Admission: the checks before CheckTx (size, cache, room) and the decision after it.
import { cachePush, cacheRemove } from "../cache.js";
import type { MempoolEffect } from "../effect.js";
import { mempoolFull, txEmpty, txInCache, txTooLarge } from "../errors.js";
import type { CheckTxCompleted, TxSubmitted } from "../input.js";
import type { MempoolState } from "../state.js";
import type { MempoolTransition } from "../transition.js";
import { noticeTxsAvailable } from "./txs-available.js";

function roomFor(state: MempoolState, txLength: number) {
  const { size, maxTxsBytes } = state.config;
  if (state.txs.size >= size || state.txsBytes + txLength > maxTxsBytes) {
    return mempoolFull(state.txs.size, size, state.txsBytes, maxTxsBytes);
  }
  return undefined;
}

const refuse = (
  input: { requestId: number; hash: string },
  refusal: ReturnType<typeof txEmpty>,
): MempoolEffect => ({
  type: "AdmissionDecided",
  requestId: input.requestId,
  hash: input.hash,
  outcome: { kind: "refused", refusal },
});

export function onTxSubmitted(state: MempoolState, input: TxSubmitted): MempoolTransition {
  const { config } = state;
  if (input.tx.length === 0) return { state, effects: [refuse(input, txEmpty())] };
  if (input.tx.length > config.maxTxBytes) {
    return { state, effects: [refuse(input, txTooLarge(config.maxTxBytes, input.tx.length))] };
  }
  const full = roomFor(state, input.tx.length);
  if (full) return { state, effects: [refuse(input, full)] };

  const pending = state.txs.get(input.hash);
  if (state.cache.has(input.hash) || pending || state.checking.has(input.hash)) {
    // Remember another sender of a pending tx so it is not gossiped back to it.
    const txs =
      pending && !pending.senders.includes(input.from)
        ? state.txs.set(input.hash, { ...pending, senders: [...pending.senders, input.from] })
        : state.txs;
    const cache = cachePush(state.cache, input.hash, config.cacheSize);
    return {
      state: { ...state, txs, cache },
      effects: [refuse(input, txInCache(pending !== undefined || state.checking.has(input.hash)))],
    };
  }
  return {
    state: {
      ...state,
      cache: cachePush(state.cache, input.hash, config.cacheSize),
      checking: state.checking.set(input.hash, false),
    },
    effects: [
      { type: "RunCheckTx", requestId: input.requestId, hash: input.hash, tx: input.tx, from: input.from },
    ],
  };
}

export function onCheckTxCompleted(state: MempoolState, input: CheckTxCompleted): MempoolTransition {
  const checking = state.checking.delete(input.hash);
  if (state.checking.get(input.hash) === true) {
    // Committed in a block while its CheckTx ran: adding it now would propose it twice.
    return { state: { ...state, checking }, effects: [refuse(input, txInCache(false))] };
  }
  if (input.code !== 0) {
    const cache = state.config.keepInvalidTxsInCache ? state.cache : cacheRemove(state.cache, input.hash);
    return {
      state: { ...state, checking, cache },
      effects: [
        {
          type: "AdmissionDecided",
          requestId: input.requestId,
          hash: input.hash,
          outcome: { kind: "invalid", code: input.code },
        },
      ],
    };
  }
  // The pool may have filled up while CheckTx ran.
  const full = roomFor(state, input.tx.length);
  if (full || state.txs.has(input.hash)) {
    const refusal = full ?? txInCache(true);
    return {
      state: { ...state, checking, cache: full ? cacheRemove(state.cache, input.hash) : state.cache },
      effects: [refuse(input, refusal)],
    };
  }
  const added: MempoolState = {
    ...state,
    checking,
    txs: state.txs.set(input.hash, {
      hash: input.hash,
      tx: input.tx,
      gasWanted: input.gasWanted,
      height: state.height,
      addedAtMs: input.time,
      senders: input.from === "rpc" ? [] : [input.from],
    }),
    txsBytes: state.txsBytes + input.tx.length,
  };
  const effects: MempoolEffect[] = [
    { type: "AdmissionDecided", requestId: input.requestId, hash: input.hash, outcome: { kind: "added" } },
    {
      type: "GossipTx",
      hash: input.hash,
      tx: input.tx,
      exceptPeers: input.from === "rpc" ? [] : [input.from],
    },
  ];
  return noticeTxsAvailable(added, effects);
}
