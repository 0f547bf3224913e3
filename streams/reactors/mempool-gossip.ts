// The mempool reactor on channel 0x30 (v0.34 mempool/reactor.go): the gossip reducer
// (src/mempool-gossip) in a loop of its own, fed by the peer layer's joins and leaves and by the
// mempool's effects (admissions, later senders, txs leaving the pool); its sends go on the peers'
// connections and their outcome comes back as input. Peers' txs are decoded against our
// max_tx_bytes and the channel capacity, then submitted to the mempool with their sender (CheckTx
// refusals never stop a peer); garbage is reported to the peer layer with the reason.
import { asyncScheduler, map, mergeMap, Observable, type SchedulerLike, timer } from "rxjs";
import type { NodeConfig } from "../../src/config/config-schema.js";
import type { Logger } from "../../src/logger/index.js";
import type { MempoolEffect } from "../../src/mempool/effect.js";
import {
  type AdmittedTx,
  initialMempoolGossipState,
  type MempoolGossipConfig,
  type MempoolGossipEffect,
  type MempoolGossipInput,
  type MempoolGossipState,
  mempoolGossipReducer,
  type PooledTx,
  type SendGossipTx,
} from "../../src/mempool-gossip/index.js";
import { CHANNEL_MEMPOOL, mempoolRecvMessageCapacity } from "../../src/p2p/channels.js";
import { decodeMempoolMessage } from "../../src/p2p/mempool-wire.js";
import { AdmittedTxDigests, bytesKey } from "../../src/wire/admitted-tx-digests.js";
import type { TxSha256 } from "../../src/wire/hashes.js";
import { createLoop, type LoopFault } from "../loop.js";
import type { PeerTxAnswered } from "../mempool-node.js";
import type { PeerLayer } from "../p2p-layer.js";
import { channelPeers$ } from "../sources/peers.js";
import { sendWhenRoom } from "./send-when-room.js";

/** Peer txs submitted and not yet answered, over all peers: beyond it a peer's tx is dropped. */
export const MAX_PEER_TXS_IN_FLIGHT = 10_000;

/**
 * Peers' txs whose key is remembered by their bytes, the latest submitted (PEER_TX_KEYS_BYTES bounds
 * their bytes too): the other copies of a tx come from the other peers within the gossip's own
 * delay, well under the 2.7 s these hold at 6,000 tx/s.
 */
export const PEER_TX_KEYS_KEPT = 16_384;
export const PEER_TX_KEYS_BYTES = 16 * 1024 * 1024;

export interface MempoolGossipDeps {
  mempool: {
    readonly effect$: Observable<MempoolEffect>;
    /**
     * The tx as the mempool keeps it, with its sha256 (hashed once) and `bytesKey` (its
     * admitted-tx-digests key, computed once here and carried on to the mempool's memo).
     */
    hashTx(tx: Uint8Array, bytesKey?: number): TxSha256;
    /** Notes the sender of a tx the mempool has seen and answers true; false: submit it. */
    resentByPeer(hash: string, from: string): boolean;
    /** Registers the function every peer tx's outcome goes to; returns its removal (mempool-node.ts). */
    answerPeerTxs(answered: PeerTxAnswered): () => void;
    /** Submits a peer's tx; its outcome goes to the registered function. */
    submitPeerTx(hashed: TxSha256, from: string): void;
    /** The mempool's current state: its pending txs in admission order, read when a peer joins. */
    state(): { readonly txs: { values(): Iterable<PooledTx> } };
  };
  config: MempoolGossipConfig & { readonly maxTxBytes: number };
  /** The peer's consensus height (the consensus gossip reactor's peer state); undefined: not known. */
  peerHeight?: (peerId: string) => bigint | undefined;
  scheduler?: SchedulerLike;
  logger: Logger;
  /** Our own exception in the reducer or a handler. */
  onFault(fault: LoopFault): void;
}

export interface MempoolGossipReactor {
  /** The reducer's latest state (tests, metrics). */
  state(): MempoolGossipState;
  stop(): void;
}

type LayerHub = Pick<PeerLayer, "hub" | "reportPeer">;

/**
 * Most txs per mempool message: one, as v0.34 sends. The reducer can put up to this many
 * consecutive txs in a message (within the channel's capacity), which v0.34 receivers accept, but
 * on the 4-validator bench 100 per message committed fewer txs, not more (0.07 and 0.17 of one
 * validator's tx/s against 0.43 and 0.31 at one per message, docs/network.md), so it stays at one
 * until that is understood.
 */
export const MEMPOOL_GOSSIP_BATCH_TXS = 1;

/**
 * Most one-tx messages handed to a peer's connection in one send (each still its own message on
 * the wire, as v0.34 sends them). v0.34's routine blocks on a send queue of one place that its
 * connection's own goroutine empties at once; here the queue empties on the connection's next
 * event-loop turn, so one message per send moved each peer's walk one tx per turn, and every tx
 * cost a fold, a send and its answer per peer. A group pays those once; it is bounded by
 * MEMPOOL_GOSSIP_SEND_BYTES too, so large txs go a few at a time.
 */
export const MEMPOOL_GOSSIP_MESSAGES_PER_SEND = 64;
/** Bytes after which a send takes no further message: one write batch of the connection. */
export const MEMPOOL_GOSSIP_SEND_BYTES = 65536;

const RELAY_RELEASE_DUE: MempoolGossipInput = { type: "RelayReleaseDue" };

/** The settings the reactor reads: mempool.broadcast, max_tx_bytes, relay_hold, peer_gossip_sleep. */
export function mempoolGossipConfigOf(config: NodeConfig): MempoolGossipDeps["config"] {
  return {
    broadcast: config.mempool.broadcast,
    maxTxBytes: config.mempool.max_tx_bytes,
    peerGossipSleepMs: config.consensus.peer_gossip_sleep_duration,
    batchTxs: MEMPOOL_GOSSIP_BATCH_TXS,
    messagesPerSend: MEMPOOL_GOSSIP_MESSAGES_PER_SEND,
    sendBytes: MEMPOOL_GOSSIP_SEND_BYTES,
    // One message of our largest tx: a peer with our max_tx_bytes takes every batch.
    batchMessageBytes: mempoolRecvMessageCapacity(config.mempool.max_tx_bytes),
    relayHoldMs: config.mempool.relay_hold,
  };
}

/**
 * The gossip's inputs from the mempool's effects, in order: the GossipTx effects that come one
 * after the other (a mempool fold's admissions) as one TxsAdmitted, handed on in the microtask after
 * the fold that emitted them, or before the next effect the gossip follows, whichever is first, so
 * no input overtakes them. One fold per mempool fold instead of one per tx: its state, its list
 * edits and its wake of the idle peers were paid per tx (~5 % of a network node's time).
 */
export function gossipInputsOf(effect$: Observable<MempoolEffect>): Observable<MempoolGossipInput> {
  return new Observable<MempoolGossipInput>((subscriber) => {
    let batch: AdmittedTx[] | undefined;
    const flush = () => {
      if (batch === undefined) return;
      const txs = batch;
      batch = undefined;
      subscriber.next({ type: "TxsAdmitted", txs });
    };
    const subscription = effect$.subscribe({
      next(e) {
        if (e.type === "GossipTx") {
          if (batch === undefined) {
            batch = [];
            queueMicrotask(flush);
          }
          batch.push({ hash: e.hash, tx: e.tx, height: e.height, senders: e.exceptPeers });
          return;
        }
        const input = gossipInputOf(e);
        if (input === undefined) return;
        flush();
        subscriber.next(input);
      },
      error(error) {
        flush();
        subscriber.error(error);
      },
      complete() {
        flush();
        subscriber.complete();
      },
    });
    return () => {
      batch = undefined;
      subscription.unsubscribe();
    };
  });
}

/** The gossip's input for a mempool effect other than GossipTx, or undefined for one it does not follow. */
function gossipInputOf(e: MempoolEffect): MempoolGossipInput | undefined {
  switch (e.type) {
    case "NoteTxSenders":
      return { type: "TxSendersNoted", notes: e.notes };
    case "StopGossipingTxs":
    case "TxsEvicted":
      return { type: "TxsLeftPool", hashes: e.hashes };
    default:
      return undefined;
  }
}

export function startMempoolGossipReactor(layer: LayerHub, deps: MempoolGossipDeps): MempoolGossipReactor {
  const { hub } = layer;
  const scheduler = deps.scheduler ?? asyncScheduler;
  const peerHeight = deps.peerHeight ?? (() => undefined);
  const log = deps.logger;

  // Peers already connected when the reactor starts, then every join and leave.
  const peerInputs$ = channelPeers$(hub, CHANNEL_MEMPOOL).pipe(
    map(
      (e): MempoolGossipInput =>
        e.type === "added"
          ? {
              type: "GossipPeerAdded",
              peerId: e.peerId,
              peerHeight: peerHeight(e.peerId),
              // Read now, when the join is queued: every admission the reducer skipped for want of
              // a peer is in it, and every later one is folded after the join (one FIFO queue).
              pool: Array.from(deps.mempool.state().txs.values()),
            }
          : { type: "GossipPeerRemoved", peerId: e.peerId },
    ),
  );
  // One input per mempool effect that gossip cares about (a fold's admissions together), without
  // an inner observable per admitted tx (a mergeMap's was 12 % of a node's allocations in a profile).
  const mempoolInputs$ = gossipInputsOf(deps.mempool.effect$);

  const sendOne = (e: SendGossipTx) =>
    sendWhenRoom(hub, e.peerId, e.channelId, e.messages, scheduler).pipe(
      map(
        (delivered): MempoolGossipInput => ({
          type: "GossipTxSendFinished",
          peerId: e.peerId,
          seq: e.seq,
          through: e.through,
          delivered,
          peerHeight: peerHeight(e.peerId),
        }),
      ),
    );

  const handler = (effect$: Observable<MempoolGossipEffect>): Observable<MempoolGossipInput> =>
    effect$.pipe(
      mergeMap((e): Observable<MempoolGossipInput> => {
        switch (e.type) {
          case "SendGossipTx":
            return sendOne(e);
          case "ScheduleGossipSleep":
            return timer(e.afterMs, scheduler).pipe(
              map(
                (): MempoolGossipInput => ({
                  type: "GossipSleepElapsed",
                  peerId: e.peerId,
                  peerHeight: peerHeight(e.peerId),
                }),
              ),
            );
          case "ScheduleRelayRelease":
            return timer(e.afterMs, scheduler).pipe(map((): MempoolGossipInput => RELAY_RELEASE_DUE));
        }
      }),
    );

  let latest = initialMempoolGossipState(deps.config);
  const loop = createLoop<MempoolGossipState, MempoolGossipInput, MempoolGossipEffect, MempoolGossipInput>({
    initialState: latest,
    reducer: mempoolGossipReducer,
    sources: deps.config.broadcast ? [peerInputs$, mempoolInputs$] : [],
    stamp: (input) => input,
    toInput: (record) => record,
    handlers: [handler],
    onFault: (fault) => deps.onFault(fault),
  });
  const running = loop.state$.subscribe((s) => {
    latest = s;
  });
  running.add(loop.start());

  // Receiving: decode within our limits, then the mempool's admission with the sender. A plain
  // subscriber: no inner observable per message or per tx. In a full mesh most copies a node
  // receives are of txs it already has (each tx comes from up to every peer): those are turned
  // away here with their sender noted, before any promise, waiter or admission fold.
  let inFlight = 0;
  // One function for every peer tx's outcome: no promise or closure per tx.
  const answered: PeerTxAnswered = (from, hash, outcome) => {
    inFlight--;
    if (outcome.kind !== "added" && log.isEnabled("debug"))
      log.debug("peer tx not added", { peer: from, hash, outcome: outcome.kind });
  };
  running.add(deps.mempool.answerPeerTxs(answered));
  // The key of a tx a peer sent lately, found again by its bytes: in a full mesh each tx comes from
  // up to every peer, and a later copy was copied out of its message and sha256-hashed only to be
  // turned away by resentByPeer. The memo answers only for equal bytes (a 32-bit key picks the
  // candidate, its tx is compared byte for byte: admitted-tx-digests.ts), so the key is the one
  // hashing the copy would make; a crafted collision only displaces an entry, and the copy is then
  // hashed as before. Its key is also the very string the mempool keys the tx by (a lookup with no
  // string to hash or compare char by char).
  const peerTxKeys = new AdmittedTxDigests<TxSha256>(PEER_TX_KEYS_KEPT, PEER_TX_KEYS_BYTES);
  // The tx's 32-bit key over its bytes is computed once, here: this memo's lookup and entry and,
  // carried in its TxSha256, the admitted digests' entry take it (one pass over the bytes, not three).
  const submit = (peerId: string, tx: Uint8Array) => {
    const bytes = bytesKey(tx);
    const known = peerTxKeys.of(tx, bytes);
    if (known !== undefined && deps.mempool.resentByPeer(known.key, peerId)) return;
    const hashed = deps.mempool.hashTx(tx, bytes);
    // A known tx gone from the mempool was asked under this very key just now.
    if (known === undefined && deps.mempool.resentByPeer(hashed.key, peerId)) return;
    if (inFlight >= MAX_PEER_TXS_IN_FLIGHT) {
      log.debug("dropped a peer tx: too many peer txs awaiting CheckTx", { peer: peerId });
      return;
    }
    inFlight++;
    peerTxKeys.remember(hashed, bytes);
    deps.mempool.submitPeerTx(hashed, peerId);
  };
  running.add(
    hub.channel$(CHANNEL_MEMPOOL).subscribe((m) => {
      const decoded = decodeMempoolMessage(m.bytes, deps.config.maxTxBytes);
      if (decoded.kind === "invalid") {
        log.info("peer sent a bad mempool message", { peer: m.peerId, reason: decoded.reason });
        layer.reportPeer(m.peerId, `mempool channel 0x30: ${decoded.reason}`);
        return;
      }
      if (decoded.txs.length === 0) log.debug("peer sent an empty txs message", { peer: m.peerId });
      for (const tx of decoded.txs) submit(m.peerId, tx);
    }),
  );

  return { state: () => latest, stop: () => running.unsubscribe() };
}
