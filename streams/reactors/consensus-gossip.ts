// The consensus reactor's wiring (channels 0x20–0x23): the gossip reducer
// (src/consensus/gossip) in its own loop, fed by the peer layer (peers added and removed, every
// consensus message decoded and checked by src/p2p/consensus-wire.ts), by our consensus state
// after each transition, and by its own tick; its effects are carried out here: messages encoded
// onto the channel v0.34 sends them on, block-store reads for catching peers up, the tick timer,
// and peers reported for invalid or lying messages. Peers' Proposal, BlockPart and Vote also go,
// separately, through the verification step into the consensus log (sources/peers.ts): here they
// only tell us what the peer holds.
import {
  asyncScheduler,
  concatMap,
  EMPTY,
  filter,
  from,
  interval,
  map,
  merge,
  mergeMap,
  Observable,
  of,
  type SchedulerLike,
  Subject,
  switchMap,
  timer,
} from "rxjs";
import type { NodeConfig } from "../../src/config/config-schema.js";
import {
  DEFAULT_GOSSIP_CONFIG,
  type GossipEffect,
  type GossipInput,
  type GossipState,
  gossipReducer,
  initialGossipState,
} from "../../src/consensus/gossip/index.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import type { Logger } from "../../src/logger/index.js";
import {
  CHANNEL_DATA,
  CHANNEL_STATE,
  CHANNEL_VOTE,
  CHANNEL_VOTE_SET_BITS,
  channelOf,
  decodeConsensusWire,
  encodeConsensusMessage,
} from "../../src/p2p/consensus-wire.js";
import type { BlockStore } from "../../src/store/block-store.js";
import type { Part } from "../../src/wire/generated/tendermint/types/types.js";
import { createLoop } from "../loop.js";
import type { PeerLayer } from "../p2p-layer.js";

export interface ConsensusGossipDeps {
  /** Our consensus state after each transition (the consensus loop's state$). */
  readonly consensus$: Observable<ConsensusState>;
  readonly blockStore: Pick<
    BlockStore,
    "loadBlockMeta" | "loadBlockPart" | "loadBlockCommit" | "loadSeenCommit"
  >;
  /** [consensus] peer_gossip_sleep_duration and peer_query_maj23_sleep_duration, in ms. */
  readonly gossipSleepMs: number;
  readonly queryMaj23SleepMs: number;
  readonly log: Logger;
  readonly scheduler?: SchedulerLike;
  readonly clock?: () => number;
  /** Our own exception in the reducer or a handler: the node halts with this message. */
  readonly onFault?: (reason: string) => void;
  /**
   * True while the node runs block sync instead of consensus (at start with fast_sync, or after
   * falling behind and returning to it). Meanwhile, as v0.34's reactor while it waits for sync,
   * the gossip sends nothing of its own (its ticks wait) and ignores peers' data, vote and
   * vote-set-bits messages; peers' round steps (the state channel) are still tracked.
   */
  readonly syncing?: () => boolean;
}

export interface ConsensusGossipReactor {
  /** The reducer's latest state (peers' round states), for tests and dump_consensus_state. */
  state(): GossipState;
  /**
   * A peer's height as its NewRoundStep messages tell it (undefined before the first): what the
   * mempool and evidence reactors wait on, as v0.34's read the peer's consensus state.
   */
  peerHeight(peerId: string): bigint | undefined;
  stop(): void;
}

const CHANNELS = [CHANNEL_STATE, CHANNEL_DATA, CHANNEL_VOTE, CHANNEL_VOTE_SET_BITS];
/** The largest block a catch-up load reads whole (v0.34's MaxBlockPartsCount parts). */
const MAX_CATCHUP_PARTS = 1601;

export function startConsensusGossipReactor(
  layer: PeerLayer,
  deps: ConsensusGossipDeps,
): ConsensusGossipReactor {
  const { hub } = layer;
  const log = deps.log;
  const scheduler = deps.scheduler ?? asyncScheduler;
  const clock = deps.clock ?? (() => Date.now());
  const syncing = deps.syncing ?? (() => false);
  const ticks = new Subject<number>();

  const peerInputs: Observable<GossipInput> = merge(
    from(hub.ids()).pipe(map((peerId): GossipInput => ({ type: "GossipPeerAdded", nowMs: 0, peerId }))),
    hub.peers$.pipe(
      map(
        (e): GossipInput =>
          e.type === "added"
            ? { type: "GossipPeerAdded", nowMs: 0, peerId: e.peerId }
            : { type: "GossipPeerRemoved", nowMs: 0, peerId: e.peerId },
      ),
    ),
  );
  const messageInputs: Observable<GossipInput> = merge(...CHANNELS.map((c) => hub.channel$(c))).pipe(
    mergeMap((m): Observable<GossipInput> => {
      const decoded = decodeConsensusWire(m.bytes, m.channelId);
      if (decoded.kind === "invalid") {
        layer.reportPeer(m.peerId, decoded.reason);
        return EMPTY;
      }
      if (!decoded.channelMatches) {
        log.info("consensus message on the wrong channel; ignored", {
          peer: m.peerId,
          channel: m.channelId,
          variant: decoded.message.$case,
        });
        return EMPTY;
      }
      // Our round state is stale while block sync runs: what peers say they hold of it would only
      // mark votes and parts as delivered that consensus, once back, has not seen go out.
      if (m.channelId !== CHANNEL_STATE && syncing()) return EMPTY;
      return of<GossipInput>({
        type: "GossipMessageReceived",
        nowMs: 0,
        peerId: m.peerId,
        message: decoded.message,
      });
    }),
  );
  const ourInputs: Observable<GossipInput> = deps.consensus$.pipe(
    map((state): GossipInput => ({ type: "OurStateChanged", nowMs: 0, state })),
  );
  // On real time, a tick waits for the event loop's I/O of the turn it fired in (setImmediate runs
  // after the poll phase; a timer runs before it): after a long turn, what peers sent meanwhile (a
  // NewValidBlock saying a part arrived) is folded before the tick that would relay the part to a
  // peer that seemed to have stalled (the relay rule, src/consensus/gossip/gossip-data.ts).
  const afterIo = deps.scheduler === undefined ? afterPendingIo : (due: Observable<number>) => due;
  const tickInputs: Observable<GossipInput> = ticks.pipe(
    switchMap((atMs) => afterIo(timer(Math.max(0, atMs - clock()), scheduler))),
    map((): GossipInput => ({ type: "GossipTicked", nowMs: 0 })),
  );
  // Block sync's start and end reach the reducer as inputs (its pause rule: GossipPauseChanged),
  // sampled like the clock: before any input that follows a change, and every
  // peer_gossip_sleep_duration, so the end is seen even when nothing else arrives.
  let paused = false;
  const pauseChange = (): GossipInput | undefined => {
    const now = syncing();
    if (now === paused) return undefined;
    paused = now;
    return { type: "GossipPauseChanged", nowMs: 0, paused: now };
  };
  const withPause = (input$: Observable<GossipInput>): Observable<GossipInput> =>
    input$.pipe(
      concatMap((input) => {
        const change = pauseChange();
        return change === undefined ? of(input) : of(change, input);
      }),
    );
  const pauseInputs: Observable<GossipInput> = interval(deps.gossipSleepMs, scheduler).pipe(
    map(pauseChange),
    filter((change): change is GossipInput => change !== undefined),
  );

  const initial = initialGossipState({
    ...DEFAULT_GOSSIP_CONFIG,
    gossipSleepMs: deps.gossipSleepMs,
    queryMaj23SleepMs: deps.queryMaj23SleepMs,
  });
  const loop = createLoop<GossipState, GossipInput, GossipEffect, GossipInput>({
    initialState: initial,
    reducer: gossipReducer,
    sources: [...[peerInputs, messageInputs, ourInputs, tickInputs].map(withPause), pauseInputs],
    stamp: (input) => ({ ...input, nowMs: clock() }),
    toInput: (record) => record,
    onFault: (fault) => (deps.onFault ?? ((r) => log.error(r)))(`consensus gossip halted: ${fault.reason}`),
    handlers: [(effect$) => effect$.pipe(mergeMap((e) => carryOut(e)))],
  });

  function carryOut(e: GossipEffect): Observable<GossipInput> {
    switch (e.type) {
      case "SendToPeer": {
        const sent = hub.send(e.peerId, channelOf(e.message), encodeConsensusMessage(e.message));
        return sent
          ? EMPTY
          : of<GossipInput>({ type: "GossipSendFailed", nowMs: 0, peerId: e.peerId, message: e.message });
      }
      case "BroadcastToPeers":
        hub.broadcast(channelOf(e.message), encodeConsensusMessage(e.message));
        return EMPTY;
      case "ReportPeer":
        layer.reportPeer(e.peerId, e.reason);
        return EMPTY;
      case "ScheduleTick":
        ticks.next(e.atMs);
        return EMPTY;
      case "LoadStoredBlock":
        return from(loadStored(e.height));
    }
  }

  async function loadStored(height: bigint): Promise<GossipInput> {
    const missing: GossipInput = { type: "StoredBlockMissing", nowMs: 0, height };
    try {
      const meta = await deps.blockStore.loadBlockMeta(height);
      const header = meta?.blockId?.partSetHeader;
      if (header === undefined || header.total <= 0 || header.total > MAX_CATCHUP_PARTS) return missing;
      const commit =
        (await deps.blockStore.loadBlockCommit(height)) ?? (await deps.blockStore.loadSeenCommit(height));
      if (commit === undefined) return missing;
      const parts: Part[] = [];
      for (let i = 0; i < header.total; i++) {
        const part = await deps.blockStore.loadBlockPart(height, i);
        if (part === undefined) return missing;
        parts.push(part);
      }
      return { type: "StoredBlockLoaded", nowMs: 0, height, header, parts, commit };
    } catch (error) {
      log.error("could not read a stored block for catch-up", {
        height: String(height),
        err: (error as Error).message,
      });
      return missing;
    }
  }

  let latest = initial;
  const running = loop.state$.subscribe((s) => {
    latest = s;
  });
  running.add(loop.start());
  log.info("consensus reactor started", {
    peer_gossip_sleep_ms: deps.gossipSleepMs,
    peer_query_maj23_sleep_ms: deps.queryMaj23SleepMs,
  });
  return {
    state: () => latest,
    peerHeight(peerId) {
      const height = latest.peers.get(peerId)?.prs.height;
      return height === undefined || height === 0n ? undefined : height;
    },
    stop() {
      running.unsubscribe();
      ticks.complete();
    },
  };
}

/** `due`'s value, delivered in the check phase of the loop turn it came in (after that turn's I/O). */
function afterPendingIo<T>(due: Observable<T>): Observable<T> {
  return due.pipe(
    switchMap(
      (value) =>
        new Observable<T>((subscriber) => {
          const handle = setImmediate(() => {
            subscriber.next(value);
            subscriber.complete();
          });
          return () => clearImmediate(handle);
        }),
    ),
  );
}

/** The node's reactor from its config: the one line streams/node.ts calls. */
export function startNodeConsensusGossip(
  peers: PeerLayer,
  o: {
    config: NodeConfig;
    consensus$: Observable<ConsensusState>;
    blockStore: ConsensusGossipDeps["blockStore"];
    logger: Logger;
    halt: (reason: string) => void;
    syncing: () => boolean;
  },
): ConsensusGossipReactor {
  return startConsensusGossipReactor(peers, {
    consensus$: o.consensus$,
    blockStore: o.blockStore,
    gossipSleepMs: o.config.consensus.peer_gossip_sleep_duration,
    queryMaj23SleepMs: o.config.consensus.peer_query_maj23_sleep_duration,
    log: o.logger.child("consensus-gossip"),
    onFault: o.halt,
    syncing: o.syncing,
  });
}
