// Admission: the checks before CheckTx (size, cache, room) and the decision after it. Each rule is
// written once, on a draft (transient copies of the pool, the running checks and the cache), and
// folded over one tx (TxSubmitted, CheckTxCompleted) or a batch (TxsSubmitted, CheckTxsCompleted):
// a batch is the same as its txs folded one after another, with one copy of each map per fold
// instead of one per tx. The state passed in is never changed.
import { TxDigests } from "../../wire/hashes.js";
import type { TxCacheDraft } from "../cache.js";
import type { MempoolEffect } from "../effect.js";
import { type MempoolRefusal, mempoolFull, txEmpty, txInCache, txTooLarge } from "../errors.js";
import type {
  CheckTxCompleted,
  CheckTxResult,
  CheckTxsCompleted,
  TxResent,
  TxSubmission,
  TxSubmitted,
  TxsSubmitted,
} from "../input.js";
import type { CheckingTx, MempoolConfig, MempoolState, MempoolTx } from "../state.js";
import type { MempoolTransition } from "../transition.js";
import type { MapDraft } from "../versioned-map.js";
import { noticeTxsAvailable } from "./txs-available.js";

/** What admissions edit during one fold, as transient copies of the state's parts. */
interface AdmissionDraft {
  readonly config: MempoolConfig;
  readonly height: bigint;
  /** The fold's time: when an added tx entered the pool (ttl-duration). */
  readonly time: number;
  readonly txs: MapDraft<MempoolTx>;
  readonly checking: MapDraft<CheckingTx>;
  readonly cache: TxCacheDraft;
  txsBytes: number;
  /** A tx entered the pool: the "txs available" notice may be due. */
  added: boolean;
  readonly effects: MempoolEffect[];
  /** New txs whose CheckTx is to run, in arrival order (the submissions themselves: no copy per tx). */
  readonly toCheck: TxSubmission[];
  /** Senders noted on pending txs, for one NoteTxSenders at the end of the fold. */
  readonly noted: { hash: string; peerId: string }[];
}

function draftOf(state: MempoolState, time: number): AdmissionDraft {
  return {
    config: state.config,
    height: state.height,
    time,
    txs: state.txs.asMutable(),
    checking: state.checking.asMutable(),
    cache: state.cache.edit(),
    txsBytes: state.txsBytes,
    added: false,
    effects: [],
    toCheck: [],
    noted: [],
  };
}

function finish(state: MempoolState, d: AdmissionDraft): MempoolTransition {
  if (d.noted.length > 0) d.effects.push({ type: "NoteTxSenders", notes: d.noted });
  const next: MempoolState = {
    ...state,
    txs: d.txs.asImmutable(),
    checking: d.checking.asImmutable(),
    cache: d.cache.done(),
    txsBytes: d.txsBytes,
  };
  return d.added ? noticeTxsAvailable(next, d.effects) : { state: next, effects: d.effects };
}

function roomFor(d: AdmissionDraft, txLength: number) {
  const { size, maxTxsBytes } = d.config;
  if (d.txs.size >= size || d.txsBytes + txLength > maxTxsBytes) {
    return mempoolFull(d.txs.size, size, d.txsBytes, maxTxsBytes);
  }
  return undefined;
}

// Shared by every decision and running check that carries no per-tx data (never mutated: a
// state's values are replaced, not edited): two objects fewer per admitted tx.
const ADDED: { readonly kind: "added" } = Object.freeze({ kind: "added" });
const NO_SENDERS: readonly string[] = Object.freeze([]);
const CHECKING_FROM_RPC: CheckingTx = Object.freeze({ committed: false, senders: NO_SENDERS });

const refuse = (input: { requestId: number; hash: string }, refusal: MempoolRefusal): MempoolEffect => ({
  type: "AdmissionDecided",
  requestId: input.requestId,
  hash: input.hash,
  outcome: { kind: "refused", refusal },
});

/**
 * Remembers another peer that sent a pending (or still checking) tx, so it is never gossiped back
 * to it (v0.34 keeps every sender, even of duplicates arriving later).
 */
function noteSender(
  d: AdmissionDraft,
  hash: string,
  from: string,
  pending: MempoolTx | undefined,
  running: CheckingTx | undefined,
): void {
  if (pending) {
    if (pending.senders.includes(from)) return;
    d.txs.set(hash, { ...pending, senders: [...pending.senders, from] });
    d.noted.push({ hash, peerId: from });
  } else if (running && !running.senders.includes(from)) {
    d.checking.set(hash, { ...running, senders: [...running.senders, from] });
  }
}

/** A tx a peer sent again, seen when it arrived: its sender noted, its cache entry refreshed. */
function resentOne(d: AdmissionDraft, { hash, from }: TxResent): void {
  const pending = d.txs.get(hash);
  const running = pending === undefined ? d.checking.get(hash) : undefined;
  if (pending === undefined && running === undefined && !d.cache.has(hash)) return;
  noteSender(d, hash, from, pending, running);
  d.cache.push(hash, d.config.cacheSize);
}

/** A tx arrives: refused by size, room or cache, or its CheckTx is to run. */
function submitOne(d: AdmissionDraft, input: TxSubmission): void {
  const { config } = d;
  if (input.tx.length === 0) {
    d.effects.push(refuse(input, txEmpty()));
    return;
  }
  if (input.tx.length > config.maxTxBytes) {
    d.effects.push(refuse(input, txTooLarge(config.maxTxBytes, input.tx.length)));
    return;
  }
  const full = roomFor(d, input.tx.length);
  if (full) {
    d.effects.push(refuse(input, full));
    return;
  }
  const pending = d.txs.get(input.hash);
  const running = d.checking.get(input.hash);
  // Pushed (or refreshed) either way; whether it was cached is read in the same lookup.
  const cached = d.cache.pushWasLive(input.hash, config.cacheSize);
  if (cached || pending || running) {
    if (input.from !== "rpc") noteSender(d, input.hash, input.from, pending, running);
    d.effects.push(refuse(input, txInCache(pending !== undefined || running !== undefined)));
    return;
  }
  d.checking.set(
    input.hash,
    input.from === "rpc" ? CHECKING_FROM_RPC : { committed: false, senders: [input.from] },
  );
  d.toCheck.push(input);
}

/** CheckTx answered: the tx is added (and gossiped), or refused, or invalid. */
function completeOne(d: AdmissionDraft, input: CheckTxResult): void {
  const running = d.checking.take(input.hash);
  if (running?.committed === true) {
    // Committed in a block while its CheckTx ran: adding it now would propose it twice.
    d.effects.push(refuse(input, txInCache(false)));
    return;
  }
  if (input.code !== 0) {
    if (!d.config.keepInvalidTxsInCache) d.cache.remove(input.hash);
    d.effects.push({
      type: "AdmissionDecided",
      requestId: input.requestId,
      hash: input.hash,
      outcome: { kind: "invalid", code: input.code },
    });
    return;
  }
  // The pool may have filled up while CheckTx ran.
  const full = roomFor(d, input.tx.length);
  if (full) {
    d.cache.remove(input.hash);
    d.effects.push(refuse(input, full));
    return;
  }
  const senders = running?.senders ?? (input.from === "rpc" ? NO_SENDERS : [input.from]);
  const added = d.txs.setIfAbsent(input.hash, {
    hash: input.hash,
    tx: input.tx,
    digests: TxDigests.of(input.tx, input.sha256),
    gasWanted: input.gasWanted,
    height: d.height,
    addedAtMs: d.time,
    senders,
  });
  if (!added) {
    d.effects.push(refuse(input, txInCache(true)));
    return;
  }
  d.txsBytes += input.tx.length;
  d.added = true;
  d.effects.push(
    { type: "AdmissionDecided", requestId: input.requestId, hash: input.hash, outcome: ADDED },
    { type: "GossipTx", hash: input.hash, tx: input.tx, height: d.height, exceptPeers: senders },
  );
}

export function onTxSubmitted(state: MempoolState, input: TxSubmitted): MempoolTransition {
  const d = draftOf(state, input.time);
  submitOne(d, input);
  for (const { requestId, hash, tx, sha256, from } of d.toCheck) {
    d.effects.push({ type: "RunCheckTx", requestId, hash, tx, ...(sha256 && { sha256 }), from });
  }
  return finish(state, d);
}

/** A batch of arrivals: refusals as they are found, then one RunCheckTxs for every new tx. */
export function onTxsSubmitted(state: MempoolState, input: TxsSubmitted): MempoolTransition {
  const d = draftOf(state, input.time);
  for (const submission of input.submissions) submitOne(d, submission);
  if (input.resent !== undefined) for (const resent of input.resent) resentOne(d, resent);
  if (d.toCheck.length > 0) d.effects.push({ type: "RunCheckTxs", txs: d.toCheck });
  return finish(state, d);
}

export function onCheckTxCompleted(state: MempoolState, input: CheckTxCompleted): MempoolTransition {
  const d = draftOf(state, input.time);
  completeOne(d, input);
  return finish(state, d);
}

/** A batch of CheckTx answers, in the order sent; the "txs available" notice follows the batch. */
export function onCheckTxsCompleted(state: MempoolState, input: CheckTxsCompleted): MempoolTransition {
  const d = draftOf(state, input.time);
  for (const result of input.results) completeOne(d, result);
  return finish(state, d);
}
