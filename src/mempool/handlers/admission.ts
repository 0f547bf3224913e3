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
  const running = state.checking.get(input.hash);
  if (state.cache.has(input.hash) || pending || running) {
    // Remember another peer that sent a pending (or still checking) tx, so it is never gossiped
    // back to it (v0.34 keeps every sender, even of duplicates arriving later).
    const fromPeer = input.from !== "rpc";
    const effects: MempoolEffect[] = [];
    let { txs, checking } = state;
    if (fromPeer && pending && !pending.senders.includes(input.from)) {
      txs = txs.set(input.hash, { ...pending, senders: [...pending.senders, input.from] });
      effects.push({ type: "NoteTxSender", hash: input.hash, peerId: input.from });
    } else if (fromPeer && running && !running.senders.includes(input.from)) {
      checking = checking.set(input.hash, { ...running, senders: [...running.senders, input.from] });
    }
    const cache = cachePush(state.cache, input.hash, config.cacheSize);
    effects.push(refuse(input, txInCache(pending !== undefined || running !== undefined)));
    return { state: { ...state, txs, checking, cache }, effects };
  }
  return {
    state: {
      ...state,
      cache: cachePush(state.cache, input.hash, config.cacheSize),
      checking: state.checking.set(input.hash, {
        committed: false,
        senders: input.from === "rpc" ? [] : [input.from],
      }),
    },
    effects: [
      { type: "RunCheckTx", requestId: input.requestId, hash: input.hash, tx: input.tx, from: input.from },
    ],
  };
}

export function onCheckTxCompleted(state: MempoolState, input: CheckTxCompleted): MempoolTransition {
  const checking = state.checking.delete(input.hash);
  const running = state.checking.get(input.hash);
  if (running?.committed === true) {
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
  const senders = running?.senders ?? (input.from === "rpc" ? [] : [input.from]);
  const added: MempoolState = {
    ...state,
    checking,
    txs: state.txs.set(input.hash, {
      hash: input.hash,
      tx: input.tx,
      gasWanted: input.gasWanted,
      height: state.height,
      addedAtMs: input.time,
      senders,
    }),
    txsBytes: state.txsBytes + input.tx.length,
  };
  const effects: MempoolEffect[] = [
    { type: "AdmissionDecided", requestId: input.requestId, hash: input.hash, outcome: { kind: "added" } },
    {
      type: "GossipTx",
      hash: input.hash,
      tx: input.tx,
      height: state.height,
      exceptPeers: senders,
    },
  ];
  return noticeTxsAvailable(added, effects);
}
