// Assembles the peer layer of a node: the listener on p2p.laddr, the switch loop (peer table,
// dials, limits: src/p2p/switch) and the PEX loop (address book, peer exchange: src/p2p/pex),
// each a pure reducer in a createLoop with its effects carried out in streams/effects/p2p-*.ts,
// the hub of live connections (streams/sources/peers.ts) with per-channel message streams, the
// consensus hand-off, and what the RPC reads (net_info, dial_seeds, dial_peers).
import { randomBytes } from "node:crypto";
import {
  asyncScheduler,
  interval,
  map,
  type Observable,
  type SchedulerLike,
  Subject,
  type Subscription,
  timer,
} from "rxjs";
import { splitList } from "../src/config/config-codecs.js";
import type { ConsensusInput } from "../src/consensus/input.js";
import { NO_PEER_METRICS, type PeerMetricsSink } from "../src/metrics/index.js";
import { addOurAddress, loadAddrBook, saveAddrBook } from "../src/p2p/addrbook/index.js";
import { type NetAddress, normaliseIp, parseAddressSpec } from "../src/p2p/net-address.js";
import {
  decodePexMessage,
  initialPexState,
  PEX_CHANNEL,
  type PexEffect,
  type PexInput,
  type PexState,
  pexReducer,
} from "../src/p2p/pex/index.js";
import {
  initialSwitchState,
  peerCounts,
  type SwitchEffect,
  type SwitchInput,
  type SwitchState,
  switchReducer,
} from "../src/p2p/switch/index.js";
import type { ChannelDescriptor, MConnectionConfig, NodeInfo, UpgradeConnection } from "../src/p2p/types.js";
import { TENDERMINT_COMPAT_VERSION } from "../src/version.js";
import type { PreparedNode } from "./boot/prepare-home.js";
import { pexEffectsHandler } from "./effects/p2p-pex.js";
import { ConnectionTable, switchEffectsHandler, unstamped } from "./effects/p2p-switch.js";
import { createLoop } from "./loop.js";
import { NodeError } from "./node-errors.js";
import { laddrParts, resolveAddresses } from "./p2p-addresses.js";
import { createPeersView, type PeersView } from "./p2p-rpc-view.js";
import { listenForPeers, type PeerConsensusHandOff, PeerHub, peerConsensusInputs } from "./sources/peers.js";

/** v0.34's hard-coded ensure-peers period */
export const ENSURE_PEERS_PERIOD_MS = 30_000;
/** how often the switch looks at its deadlines and dial schedule */
export const SWITCH_TICK_MS = 100;
/** v0.34 saves the book every 2 minutes (and at stop) */
export const ADDRBOOK_SAVE_MS = 120_000;
/** v0.34's metricsTickerDuration: how often each peer's send queues are sampled for the metrics */
export const PEER_METRICS_SAMPLE_MS = 10_000;

export interface PeerTransport {
  upgrade: UpgradeConnection;
  channels: readonly ChannelDescriptor[];
  mconnection: MConnectionConfig;
}

export interface PeerLayerOptions {
  chainId: string;
  appVersion: bigint;
  transport: PeerTransport;
  scheduler?: SchedulerLike;
  /** ms clock of the switch and PEX inputs (default Date.now) */
  clock?: () => number;
  /** where the p2p metrics go (default: nowhere) */
  metrics?: PeerMetricsSink;
  /** how often the send queues are sampled for the metrics (default PEER_METRICS_SAMPLE_MS) */
  metricsSampleMs?: number;
  /**
   * Our own exception in the switch or PEX reducer or their handlers (a broken invariant): the
   * node halts with this message (DESIGN §9). Default: logged as an error.
   */
  onFault?: (reason: string) => void;
  /**
   * Keep peers' joins and messages until startDelivery(): the node connects to peers before its
   * reactors are assembled (PeerHub's holdUntilStarted). Default: delivered at once.
   */
  holdDeliveries?: boolean;
}

export interface PeerLayer {
  /** the listen_addr we advertise (external_address, else laddr with the real bound port) */
  readonly listenAddr: string;
  readonly nodeInfo: NodeInfo;
  readonly hub: PeerHub;
  readonly view: PeersView;
  /** Every reactor is subscribed: deliver what the hub held (see holdDeliveries). */
  startDelivery(): void;
  /**
   * A peer broke the protocol on some reactor's channel (garbage, a lie, a bad block): the switch
   * disconnects it with this reason (and the address book marks it bad).
   */
  reportPeer(peerId: string, reason: string): void;
  /** verified consensus inputs from peers, for the consensus loop's sources */
  consensusInput$(deps: Omit<PeerConsensusHandOff, "reject">): Observable<ConsensusInput>;
  stop(): Promise<void>;
}

export async function startPeerLayer(prepared: PreparedNode, options: PeerLayerOptions): Promise<PeerLayer> {
  const { config, paths, nodeId } = prepared;
  const p2p = config.p2p;
  const log = prepared.logger.child("p2p");
  const pexLog = prepared.logger.child("pex");
  const scheduler = options.scheduler ?? asyncScheduler;
  const clock = options.clock ?? (() => Date.now());
  const seed = () => Math.floor(Math.random() * 0x1_0000_0000);
  const table = new ConnectionTable();
  const metrics = options.metrics ?? NO_PEER_METRICS;
  const hub = new PeerHub(log, metrics, options.holdDeliveries === true);
  const onFault =
    options.onFault ??
    ((reason: string) => log.error("the peer layer stopped on an internal error", { reason }));

  // The listener first: the advertised address carries the port actually bound.
  let onSocket: (socket: import("node:net").Socket) => void = (s) => s.destroy();
  const { host: lhost, port: lport } = laddrParts(p2p.laddr);
  const listener = await listenForPeers(lhost, lport, (s) => onSocket(s)).catch((error: Error) => {
    throw new NodeError(
      "NODE_START_FAILED",
      `cannot listen for peers on p2p.laddr ${p2p.laddr}: ${error.message} (pick another port, or tcp://127.0.0.1:0 for any free one)`,
      undefined,
      { cause: error },
    );
  });
  const boundLaddr = `tcp://${lhost.includes(":") ? `[${lhost}]` : lhost}:${listener.port}`;
  const listenAddr = p2p.external_address !== "" ? p2p.external_address : boundLaddr;
  log.info("P2P listening", { address: boundLaddr, advertised: listenAddr, node_id: nodeId });

  const nodeInfo: NodeInfo = {
    protocolVersion: { p2p: 8n, block: 11n, app: options.appVersion },
    defaultNodeId: nodeId,
    listenAddr,
    network: options.chainId,
    version: TENDERMINT_COMPAT_VERSION,
    channels: Uint8Array.from(options.transport.channels.map((c) => c.id)),
    moniker: config.moniker,
    other: { txIndex: config.tx_index.indexer === "null" ? "off" : "on", rpcAddress: config.rpc.laddr },
  };

  let ourAddress: NetAddress | undefined;
  try {
    const spec = parseAddressSpec(`${nodeId}@${listenAddr.replace(/^[a-z]+:\/\//, "")}`);
    if (!spec.needsLookup) ourAddress = { id: nodeId, ip: normaliseIp(spec.host), port: spec.port };
  } catch {
    ourAddress = undefined;
  }

  const persistentPeers = await resolveAddresses(splitList(p2p.persistent_peers), log);
  const seeds = await resolveAddresses(splitList(p2p.seeds), log);
  const unconditionalIds = new Set(splitList(p2p.unconditional_peer_ids).map((id) => id.toLowerCase()));
  const privateIds = new Set(splitList(p2p.private_peer_ids).map((id) => id.toLowerCase()));

  const loaded = loadAddrBook(
    paths.addrBookFile,
    p2p.addr_book_strict,
    privateIds,
    () => randomBytes(12).toString("hex"),
    clock(),
  );
  if (loaded.problem)
    log.error("the address book was unreadable; starting with an empty one", {
      reason: loaded.problem.reason,
      moved_to: loaded.problem.movedTo,
    });
  let book = loaded.book;
  if (ourAddress) book = addOurAddress(book, ourAddress);
  log.info("address book loaded", { file: paths.addrBookFile, addresses: book.addrs.size });

  // ---- the switch loop --------------------------------------------------------------------
  const admitted$ = new Subject<{
    peer: Extract<SwitchEffect, { type: "AdmitPeer" }>["peer"];
    connection: import("../src/p2p/types.js").PeerConnection;
  }>();
  const upgrade = options.transport.upgrade;
  const initialSwitch = initialSwitchState({
    ourId: nodeId,
    maxInbound: p2p.max_num_inbound_peers,
    maxOutbound: p2p.max_num_outbound_peers,
    unconditionalIds,
    allowDuplicateIp: p2p.allow_duplicate_ip,
    handshakeTimeoutMs: p2p.handshake_timeout,
    dialTimeoutMs: p2p.dial_timeout,
    persistentMaxDialPeriodMs: p2p.persistent_peers_max_dial_period,
  });
  const switchLoop = createLoop<SwitchState, SwitchInput, SwitchEffect, SwitchInput>({
    initialState: initialSwitch,
    reducer: switchReducer,
    sources: [interval(SWITCH_TICK_MS, scheduler).pipe(map(() => unstamped({ type: "SwitchTicked" })))],
    stamp: (input) => ({ ...input, time: clock(), seed: seed() }) as SwitchInput,
    toInput: (r) => r,
    onFault: (fault) => onFault(`the peer switch halted on an internal error: ${fault.reason}`),
    handlers: [
      switchEffectsHandler({
        table,
        hub,
        log,
        admitted$,
        upgrade: (socket, o) =>
          upgrade(socket, {
            nodePrivateKey: prepared.nodeKey.privateKey,
            ourNodeInfo: nodeInfo,
            ...(o.dialledId ? { dialledId: o.dialledId } : {}),
            handshakeTimeoutMs: o.handshakeTimeoutMs,
            channels: options.transport.channels,
            mconnection: options.transport.mconnection,
            outbound: o.outbound,
          }),
      }),
    ],
  });
  let switchState = initialSwitch;
  const running: Subscription = switchLoop.state$.subscribe((s) => {
    switchState = s;
  });

  // ---- the PEX loop -----------------------------------------------------------------------
  const pexOn = p2p.pex;
  const pexLoop = createLoop<PexState, PexInput, PexEffect, PexInput>({
    initialState: initialPexState(
      {
        ourId: nodeId,
        seedMode: p2p.seed_mode,
        seeds,
        maxOutbound: p2p.max_num_outbound_peers,
        ensurePeersPeriodMs: ENSURE_PEERS_PERIOD_MS,
      },
      book,
    ),
    reducer: pexReducer,
    sources: pexOn
      ? [
          timer(0, ENSURE_PEERS_PERIOD_MS, scheduler).pipe(
            map((): PexInput => {
              const counts = peerCounts(switchState);
              return {
                type: "PexEnsurePeersTicked",
                time: 0,
                seed: 0,
                ...counts,
                connectedIds: [...switchState.peers.keys()],
              };
            }),
          ),
          interval(ADDRBOOK_SAVE_MS, scheduler).pipe(
            map((): PexInput => ({ type: "PexSaveTicked", time: 0 })),
          ),
          hub.channel$(PEX_CHANNEL).pipe(
            map((m): PexInput => {
              const message = decodePexMessage(m.bytes);
              if (message.kind === "request")
                return { type: "PexRequestReceived", time: 0, seed: 0, from: m.peerId };
              if (message.kind === "addrs")
                return { type: "PexAddrsReceived", time: 0, seed: 0, from: m.peerId, addrs: message.addrs };
              return { type: "PexMessageInvalid", time: 0, from: m.peerId, reason: message.reason };
            }),
          ),
        ]
      : [],
    stamp: (input) => ({ ...input, time: clock(), ...("seed" in input ? { seed: seed() } : {}) }) as PexInput,
    toInput: (r) => r,
    onFault: (fault) => onFault(`peer exchange halted on an internal error: ${fault.reason}`),
    handlers: [
      pexEffectsHandler({
        hub,
        addrBookFile: paths.addrBookFile,
        log: pexLog,
        dial: (addresses) =>
          switchLoop.dispatch(
            unstamped({
              type: "DialRequested",
              addresses,
              spread: false,
              persistent: false,
              unconditional: false,
            }),
          ),
        stopPeer: (id, reason, error) =>
          switchLoop.dispatch(unstamped({ type: "StopPeerRequested", id, reason, error })),
      }),
    ],
  });
  let pexState: PexState | undefined;
  running.add(
    pexLoop.state$.subscribe((s) => {
      pexState = s;
    }),
  );

  // The switch tells PEX about peers and dials; the adapters tell the switch about sockets.
  running.add(
    switchLoop.transition$.subscribe((step) => {
      const input = step.input;
      for (const e of step.effects) {
        if (e.type !== "AdmitPeer") continue;
        pexLoop.dispatch({
          type: "PexPeerAdded",
          time: 0,
          seed: 0,
          peer: {
            id: e.peer.id,
            outbound: e.peer.outbound,
            address: e.peer.address,
            persistent: e.peer.persistent,
            addedAt: e.peer.addedAt,
          },
        });
        if (e.peer.outbound && e.peer.address)
          pexLoop.dispatch({ type: "PexDialSucceeded", time: 0, address: e.peer.address });
      }
      if (input.type === "PeerDisconnected" && step.before.peers.get(input.id)?.connId === input.connId) {
        pexLoop.dispatch({ type: "PexPeerRemoved", time: 0, id: input.id });
      }
      if (input.type === "ConnectionFailed") {
        const pending = step.before.pending.get(input.connId);
        log.info(pending?.outbound ? "dial failed" : "inbound connection failed", { reason: input.reason });
        if (pending?.outbound && pending.address)
          pexLoop.dispatch({ type: "PexDialFailed", time: 0, address: pending.address });
      }
    }),
  );
  running.add(switchLoop.start());
  running.add(pexLoop.start());
  if (metrics !== NO_PEER_METRICS)
    running.add(
      interval(options.metricsSampleMs ?? PEER_METRICS_SAMPLE_MS, scheduler).subscribe(() =>
        hub.samplePendingSends(),
      ),
    );

  onSocket = (socket) => {
    const connId = table.nextInboundId();
    table.sockets.set(connId, socket);
    socket.on("error", () => {});
    switchLoop.dispatch(
      unstamped({
        type: "InboundConnected",
        connId,
        ip: normaliseIp(socket.remoteAddress ?? "0.0.0.0"),
        port: socket.remotePort ?? 0,
      }),
    );
  };

  switchLoop.dispatch(unstamped({ type: "SwitchStarted", persistentPeers }));
  if (persistentPeers.length > 0)
    pexLoop.dispatch({
      type: "PexAddressesGiven",
      time: 0,
      seed: 0,
      addresses: persistentPeers,
      ours: ourAddress,
    });

  const reject = (peerId: string, reason: string) =>
    switchLoop.dispatch(unstamped({ type: "StopPeerRequested", id: peerId, reason, error: true }));

  const view = createPeersView({
    hub,
    listenAddr,
    log,
    ourAddress,
    dispatchPex: (input) => pexLoop.dispatch(input),
    dispatchSwitch: (input) => switchLoop.dispatch(input),
  });

  let stopped = false;
  return {
    listenAddr,
    nodeInfo,
    hub,
    view,
    startDelivery: () => hub.startDelivery(),
    reportPeer: reject,
    consensusInput$: (deps) => peerConsensusInputs(hub, { ...deps, reject }, log),
    async stop() {
      if (stopped) return;
      stopped = true;
      running.unsubscribe();
      const closed = new Promise<void>((resolve) => listener.server.close(() => resolve()));
      table.closeAll("node stopping");
      hub.complete();
      await closed;
      if (pexState) {
        await saveAddrBook(paths.addrBookFile, pexState.book).catch((error: Error) =>
          log.error("could not save the address book", { file: paths.addrBookFile, err: error.message }),
        );
      }
    },
  };
}

export type { PeersView, PeerView } from "./p2p-rpc-view.js";
