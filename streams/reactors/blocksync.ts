// Block sync on channel 0x40 (v0.34 blockchain/v0), wired: the server answers status and block
// requests from the store at all times (blocksync-serve.ts); while syncing, a loop folds peers'
// status and blocks through the pure block pool (src/blocksync) and carries out its effects:
// requests to peers, CheckCommit (a held block's certificate, checked while earlier blocks apply),
// VerifyAndApply (verify-synced-block.ts, then the node's own block commit: the same ABCI calls,
// store writes and events as consensus), dropped peers, and the hand-over to consensus. In consensus it keeps asking peers' heights and tells the node (onFellBehind) when
// it fell more than fall_behind_heights behind (beyond v0.34); startSync enters block sync again.
// Progress is logged every progress interval and kept for the metrics.
import {
  asyncScheduler,
  catchError,
  concatMap,
  EMPTY,
  filter,
  from,
  ignoreElements,
  interval,
  map,
  mergeMap,
  type Observable,
  type SchedulerLike,
  Subject,
  Subscription,
  tap,
} from "rxjs";
import {
  addProgressSample,
  type BlockPoolEffect,
  type BlockPoolInput,
  type BlockPoolParams,
  type BlockPoolState,
  blockPoolReducer,
  DEFAULT_BLOCK_POOL_PARAMS,
  fellBehind,
  initialBlockPoolState,
  type ProgressSample,
  type SyncProgress,
  syncProgress,
} from "../../src/blocksync/index.js";
import type { BlockApplied } from "../../src/blocksync/input.js";
import {
  checkSyncedCommit,
  knownValidators,
  type SyncedBlockPorts,
  syncedBlockFits,
  verifySyncedBlock,
} from "../../src/blocksync/verify-synced-block.js";
import type { CommitBlock } from "../../src/consensus/effect.js";
import { processVerifiedSignatures } from "../../src/crypto/verified-signatures.js";
import type { VerifyItem } from "../../src/crypto/verify-item.js";
import type { Logger } from "../../src/logger/index.js";
import {
  BLOCKSYNC_CHANNEL,
  decodeBlocksyncMessage,
  encodeBlockRequest,
  encodeStatusRequest,
} from "../../src/p2p/blocksync-wire.js";
import type { BlockStore } from "../../src/store/block-store.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import { createLoop } from "../loop.js";
import type { PeerLayer } from "../p2p-layer.js";
import { BlockServer, DEFAULT_SERVE_QUEUED_BYTES } from "./blocksync-serve.js";

/** How often the pool's clock ticks (timeouts, retries, the status interval, the switch rule). */
export const BLOCKSYNC_TICK_MS = 100;
export const DEFAULT_PROGRESS_INTERVAL_MS = 5_000;

export interface BlocksyncProgressSink {
  progress(p: SyncProgress, syncing: boolean): void;
}

export interface BlocksyncReactorDeps {
  blockStore: Pick<BlockStore, "base" | "height" | "loadBlockBytes">;
  /** The chain state the next block applies to. */
  chainState(): ChainState;
  /** The node's block commit (ABCI, stores, events); resolves with the state after the block. */
  applyBlock(e: CommitBlock): Promise<ChainState>;
  /** Signatures (the worker pool) and v0.34's ValidateBlock. */
  verify: SyncedBlockPorts;
  /** Caught up: consensus takes over after `lastHeight`. */
  onCaughtUp(info: { lastHeight: bigint; synced: number; maxPeerHeight: bigint }): void;
  /** In consensus and more than fallBehindHeights behind the peers: the node stops consensus, then calls startSync. */
  onFellBehind(info: { height: bigint; peerHeight: bigint }): void;
  /** A block that verified could not be applied (our app or store failed): the node halts. */
  halt(reason: string): void;
  logger: Logger;
  scheduler?: SchedulerLike;
  /** ms clock (default Date.now). */
  clock?: () => number;
  params?: Partial<BlockPoolParams>;
  /** 0 turns the return to block sync off. */
  fallBehindHeights: bigint;
  serveQueuedBytes?: number;
  progressIntervalMs?: number;
}

export interface BlocksyncReactor {
  /** True from startSync until the hand-over to consensus. */
  readonly syncing: boolean;
  /** The latest progress figures (undefined before the first sync started). */
  progress(): SyncProgress | undefined;
  /** Enters block sync from the store's height + 1. */
  startSync(): void;
  /** Where the progress figures go at each progress interval (the metrics). */
  attachProgressSink(sink: BlocksyncProgressSink): void;
  stop(): void;
}

export function startBlocksyncReactor(layer: PeerLayer, deps: BlocksyncReactorDeps): BlocksyncReactor {
  const log = deps.logger;
  const scheduler = deps.scheduler ?? asyncScheduler;
  const clock = deps.clock ?? (() => Date.now());
  const params: BlockPoolParams = { ...DEFAULT_BLOCK_POOL_PARAMS, ...deps.params };
  const progressEvery = deps.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
  const hub = layer.hub;
  const server = new BlockServer(
    hub,
    deps.blockStore,
    deps.serveQueuedBytes ?? DEFAULT_SERVE_QUEUED_BYTES,
    log,
  );
  const peerHeights = new Map<string, bigint>();
  const running = new Subscription();
  let session: Subscription | undefined;
  let poolInput$: Subject<BlockPoolInput> | undefined;
  let pool: BlockPoolState | undefined;
  let samples: ProgressSample[] = [];
  let latest: SyncProgress | undefined;
  let sink: BlocksyncProgressSink | undefined;
  let fellBehindReported = false;

  // Beyond v0.34: the return to block sync (the rule: src/blocksync/caught-up.ts fellBehind).
  const checkFellBehind = () => {
    if (fellBehindReported || deps.fallBehindHeights <= 0n) return;
    const height = deps.blockStore.height();
    const peerHeight = fellBehind(height, peerHeights.values(), deps.fallBehindHeights);
    if (peerHeight === undefined) return;
    fellBehindReported = true;
    log.info("fell behind the peers: returning to block sync", {
      height,
      peerHeight,
      fallBehindHeights: deps.fallBehindHeights,
    });
    deps.onFellBehind({ height, peerHeight });
  };

  const report = (peerId: string, reason: string) => {
    log.info("dropping peer", { peer: peerId, reason });
    layer.reportPeer(peerId, reason);
  };

  // Every peer hears our status when it is added, syncing or not (v0.34's AddPeer).
  for (const id of hub.ids()) server.sendStatus(id);
  running.add(
    hub.peers$.subscribe((event) => {
      if (event.type === "added") {
        server.sendStatus(event.peerId);
        return;
      }
      peerHeights.delete(event.peerId);
      server.forget(event.peerId);
      poolInput$?.next({ type: "PeerRemoved", time: clock(), peerId: event.peerId });
    }),
  );
  running.add(
    hub.channel$(BLOCKSYNC_CHANNEL).subscribe(({ peerId, bytes }) => {
      const message = decodeBlocksyncMessage(bytes);
      switch (message.kind) {
        case "invalid":
          report(peerId, `blocksync: ${message.reason}`);
          return;
        case "statusRequest":
          server.sendStatus(peerId);
          return;
        case "blockRequest":
          server.request(peerId, message.height);
          return;
        case "statusResponse":
          peerHeights.set(peerId, message.height);
          if (session === undefined) checkFellBehind();
          poolInput$?.next({
            type: "PeerStatusReceived",
            time: clock(),
            peerId,
            base: message.base,
            height: message.height,
          });
          return;
        case "blockResponse":
          poolInput$?.next({
            type: "BlockReceived",
            time: clock(),
            peerId,
            block: message.block,
            size: bytes.length,
          });
          return;
        case "noBlockResponse":
          poolInput$?.next({ type: "NoBlockReceived", time: clock(), peerId, height: message.height });
          return;
      }
    }),
  );

  const sampleProgress = () => {
    if (pool === undefined) return;
    samples = addProgressSample(samples, { time: clock(), height: pool.height - 1n });
    latest = syncProgress(
      samples,
      pool.maxPeerHeight > pool.height - 1n ? pool.maxPeerHeight : pool.height - 1n,
    );
  };
  const logProgress = () => {
    sampleProgress();
    if (latest === undefined) return;
    log.info("block sync progress", {
      height: latest.height,
      target: latest.target,
      blocksPerSecond: Number(latest.blocksPerSecond.toFixed(1)),
      eta: formatEta(latest.etaSeconds),
      peers: pool?.peers.size ?? 0,
    });
    sink?.progress(latest, session !== undefined);
  };

  // The certificate checked ahead and the same commit read again as the next block's LastCommit
  // at its turn: each signature is verified once per process, through the process's memo
  // (src/crypto/verified-signatures.ts), which the node's verify pool asks first as well.
  const ports: SyncedBlockPorts = {
    ...deps.verify,
    verifier: deps.verify.verifier ?? {
      verifyBatch: async (items: readonly VerifyItem[]) =>
        items.map((i) => processVerifiedSignatures.verify(i.publicKey, i.message, i.signature)),
    },
  };

  const checkCommit = (e: Extract<BlockPoolEffect, { type: "CheckCommit" }>): Observable<BlockPoolInput> =>
    from(
      (async (): Promise<BlockPoolInput> => {
        const { chainId } = deps.chainState();
        const verdict = await checkSyncedCommit(chainId, e.validators, e.first, e.second, ports);
        const { height, checkId } = e;
        return verdict.ok
          ? { type: "CommitChecked", time: clock(), height, checkId, block: verdict.block }
          : {
              type: "BlockRejected",
              time: clock(),
              height,
              checkId,
              reason: verdict.reason,
              blame: verdict.blame,
            };
      })(),
    ).pipe(
      catchError((error: unknown) => {
        deps.halt(`block sync could not check block ${e.height}: ${(error as Error).message}`);
        return EMPTY;
      }),
    );

  const verifyAndApply = (
    e: Extract<BlockPoolEffect, { type: "VerifyAndApply" }>,
  ): Observable<BlockPoolInput> =>
    from(
      (async (): Promise<BlockPoolInput> => {
        const chain = deps.chainState();
        // A block checked ahead with the set that signs it has only the chain-state checks left.
        const verdict = e.checked
          ? await syncedBlockFits(chain, e.first, e.checked, ports)
          : await verifySyncedBlock(chain, e.first, e.second, ports);
        if (!verdict.ok)
          return {
            type: "BlockRejected",
            time: clock(),
            height: e.height,
            reason: verdict.reason,
            blame: verdict.blame,
          };
        const seenCommit = e.second.lastCommit!;
        const after = await deps.applyBlock({
          type: "CommitBlock",
          height: e.height,
          round: seenCommit.round,
          blockId: verdict.block.blockId,
          block: e.first,
          partSetHeader: verdict.block.blockId.partSetHeader,
          parts: verdict.block.parts,
          // v0.34 stores the next block's LastCommit as this block's seen commit.
          seenCommit,
        });
        return {
          type: "BlockApplied",
          time: clock(),
          height: e.height,
          ...validatorsOf(after),
        };
      })(),
    ).pipe(
      catchError((error: unknown) => {
        deps.halt(`block sync could not apply block ${e.height}: ${(error as Error).message}`);
        return EMPTY;
      }),
    );

  const endSession = () => {
    session?.unsubscribe();
    session = undefined;
    poolInput$?.complete();
    poolInput$ = undefined;
  };

  const startSync = () => {
    if (session !== undefined) return;
    const next = deps.blockStore.height() + 1n;
    const chainNext = deps.chainState().lastBlockHeight + 1n;
    const start = next > chainNext ? chainNext : next;
    const input$ = new Subject<BlockPoolInput>();
    poolInput$ = input$;
    // The sets of the state `start` applies to let the pool check blocks ahead of their turn.
    const chain = deps.chainState();
    const sets = start === chainNext ? validatorsOf(chain) : {};
    pool = initialBlockPoolState(
      start,
      clock(),
      params,
      sets.validators && sets.nextValidators
        ? { current: sets.validators, next: sets.nextValidators }
        : undefined,
    );
    samples = [];
    fellBehindReported = false;
    const loop = createLoop<BlockPoolState, BlockPoolInput, BlockPoolEffect, BlockPoolInput>({
      initialState: pool,
      reducer: blockPoolReducer,
      sources: [
        input$,
        interval(BLOCKSYNC_TICK_MS, scheduler).pipe(
          map((): BlockPoolInput => ({ type: "Tick", time: clock() })),
        ),
      ],
      stamp: (input) => input,
      toInput: (record) => record,
      handlers: [
        function blocksyncRequests(effect$) {
          return effect$.pipe(
            tap((e) => {
              if (e.type === "RequestBlock") server.send(e.peerId, encodeBlockRequest(e.height));
              else if (e.type === "BroadcastStatusRequest") {
                const bytes = encodeStatusRequest();
                for (const id of hub.ids()) server.send(id, bytes);
              } else if (e.type === "DropPeer") report(e.peerId, e.reason);
            }),
            ignoreElements(),
          );
        },
        function blocksyncCheck(effect$) {
          return effect$.pipe(
            filter((e) => e.type === "CheckCommit"),
            concatMap((e) => checkCommit(e)),
          );
        },
        function blocksyncApply(effect$) {
          return effect$.pipe(
            filter((e) => e.type === "VerifyAndApply"),
            concatMap((e) => verifyAndApply(e)),
          );
        },
        function blocksyncSwitch(effect$) {
          return effect$.pipe(
            filter((e) => e.type === "SwitchToConsensus"),
            mergeMap((e) => {
              logProgress();
              log.info("caught up: switching to consensus", {
                height: e.lastHeight,
                maxPeerHeight: e.maxPeerHeight,
                blocksSynced: e.synced,
              });
              // After the loop has finished this fold.
              scheduler.schedule(() => {
                endSession();
                if (latest !== undefined) sink?.progress(latest, false);
                deps.onCaughtUp({
                  lastHeight: e.lastHeight,
                  synced: e.synced,
                  maxPeerHeight: e.maxPeerHeight,
                });
              });
              return EMPTY;
            }),
          );
        },
      ],
      onFault: (fault) => deps.halt(`block sync stopped on an internal error: ${fault.reason}`),
    });
    const s = new Subscription();
    s.add(
      loop.state$.subscribe((state) => {
        pool = state;
      }),
    );
    s.add(loop.start());
    s.add(interval(progressEvery, scheduler).subscribe(() => logProgress()));
    session = s;
    log.info("block sync started", { height: start, peers: hub.ids().length });
    sampleProgress();
    if (latest !== undefined) sink?.progress(latest, true);
  };

  // In consensus: ask every peer's height on the status interval and go back to block sync when
  // too far behind, checked as each answer lands in peerHeights (checkFellBehind, above): a node
  // back from a pause acts on its peers' fresh heights, not on the ones it heard before it.
  running.add(
    interval(params.statusIntervalMs, scheduler).subscribe(() => {
      if (session !== undefined || deps.fallBehindHeights <= 0n) return;
      const bytes = encodeStatusRequest();
      for (const id of hub.ids()) server.send(id, bytes);
    }),
  );

  return {
    get syncing() {
      return session !== undefined;
    },
    progress: () => latest,
    startSync,
    attachProgressSink(s) {
      sink = s;
    },
    stop() {
      endSession();
      running.unsubscribe();
      server.stop();
    },
  };
}

/** The sets of a chain state (they sign its next two heights), when it has them. */
function validatorsOf(chain: ChainState): Pick<BlockApplied, "validators" | "nextValidators"> {
  if (chain.validators === undefined || chain.nextValidators === undefined) return {};
  return {
    validators: knownValidators(chain.validators),
    nextValidators: knownValidators(chain.nextValidators),
  };
}

/** "1h02m03s" style; "unknown" while there is no rate. */
export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return "unknown";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0
    ? `${h}h${String(m).padStart(2, "0")}m${String(sec).padStart(2, "0")}s`
    : m > 0
      ? `${m}m${String(sec).padStart(2, "0")}s`
      : `${sec}s`;
}
