// The evidence reactor on channel 0x38 (v0.34 evidence/reactor.go): the gossip reducer
// (src/evidence-gossip) in a loop of its own, fed by the peer layer's joins and leaves and by
// the evidence pool's changes (new pending evidence, evidence committed or expired); its sends
// go on the peers' connections and their outcome comes back as input. Evidence from a peer is
// decoded (ValidateBasic included) and handed to the pool, which checks it exactly as evidence
// in a block; undecodable or invalid evidence gets the peer reported with the reason, evidence
// already pending or committed is ignored quietly.
import { asyncScheduler, concatMap, map, mergeMap, Observable, type SchedulerLike, timer } from "rxjs";
import { type EvidencePoolChanges, evidenceKey, type SignatureVerifier } from "../../src/evidence/index.js";
import {
  type EvidenceGossipEffect,
  type EvidenceGossipInput,
  type EvidenceGossipState,
  evidenceGossipReducer,
  initialEvidenceGossipState,
  type SendEvidence,
} from "../../src/evidence-gossip/index.js";
import { DEFAULT_EVIDENCE_GOSSIP_CONFIG } from "../../src/evidence-gossip/state.js";
import type { Logger } from "../../src/logger/index.js";
import { CHANNEL_EVIDENCE } from "../../src/p2p/channels.js";
import { decodeEvidenceMessage } from "../../src/p2p/evidence-wire.js";
import { evidenceHeight } from "../../src/types/evidence.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { EvidencePoolHolder } from "../effects/evidence.js";
import { createLoop, type LoopFault } from "../loop.js";
import type { PeerLayer } from "../p2p-layer.js";
import { channelPeers$ } from "../sources/peers.js";
import { sendWhenRoom } from "./send-when-room.js";

export interface EvidenceGossipDeps {
  pool: Pick<EvidencePoolHolder, "state" | "onChange" | "receive">;
  /** The chain state evidence from peers is checked against (the latest committed). */
  chainState(): ChainState;
  verify: SignatureVerifier;
  /** The peer's consensus height (the consensus gossip reactor's peer state); undefined: not known. */
  peerHeight?: (peerId: string) => bigint | undefined;
  scheduler?: SchedulerLike;
  logger: Logger;
  onFault(fault: LoopFault): void;
}

export interface EvidenceGossipReactor {
  state(): EvidenceGossipState;
  stop(): void;
}

export function startEvidenceGossipReactor(
  layer: Pick<PeerLayer, "hub" | "reportPeer">,
  deps: EvidenceGossipDeps,
): EvidenceGossipReactor {
  const { hub } = layer;
  const scheduler = deps.scheduler ?? asyncScheduler;
  const peerHeight = deps.peerHeight ?? (() => undefined);
  const log = deps.logger;

  const peerInputs$ = channelPeers$(hub, CHANNEL_EVIDENCE).pipe(
    map(
      (e): EvidenceGossipInput =>
        e.type === "added"
          ? { type: "EvidencePeerAdded", peerId: e.peerId, peerHeight: peerHeight(e.peerId) }
          : { type: "EvidencePeerRemoved", peerId: e.peerId },
    ),
  );
  const toInputs = (changes: EvidencePoolChanges): EvidenceGossipInput[] => [
    ...(changes.removePending.length
      ? [{ type: "EvidenceLeftPending" as const, keys: changes.removePending.map((r) => r.key) }]
      : []),
    ...changes.addPending.map(
      (evidence): EvidenceGossipInput => ({
        type: "EvidenceBecamePending",
        key: evidenceKey(evidence),
        height: evidenceHeight(evidence),
        evidence,
      }),
    ),
  ];
  // The pool as it is now, then its changes.
  const poolInputs$ = new Observable<EvidenceGossipInput>((subscriber) => {
    for (const p of deps.pool.state().pending)
      subscriber.next({ type: "EvidenceBecamePending", key: p.key, height: p.height, evidence: p.evidence });
    return deps.pool.onChange((changes) => {
      for (const input of toInputs(changes)) subscriber.next(input);
    });
  });

  const sendOne = (e: SendEvidence) =>
    sendWhenRoom(hub, e.peerId, e.channelId, e.message, scheduler).pipe(
      map(
        (delivered): EvidenceGossipInput => ({
          type: "EvidenceSendFinished",
          peerId: e.peerId,
          seq: e.seq,
          delivered,
          peerHeight: peerHeight(e.peerId),
        }),
      ),
    );
  const handler = (effect$: Observable<EvidenceGossipEffect>): Observable<EvidenceGossipInput> =>
    effect$.pipe(
      mergeMap((e): Observable<EvidenceGossipInput> => {
        if (e.type === "SendEvidence") return sendOne(e);
        return timer(e.afterMs, scheduler).pipe(
          map(
            (): EvidenceGossipInput =>
              e.type === "ScheduleEvidenceRetry"
                ? { type: "EvidenceRetryElapsed", peerId: e.peerId, peerHeight: peerHeight(e.peerId) }
                : {
                    type: "EvidenceRebroadcastElapsed",
                    peerId: e.peerId,
                    timer: e.timer,
                    peerHeight: peerHeight(e.peerId),
                  },
          ),
        );
      }),
    );

  let latest = initialEvidenceGossipState({
    ...DEFAULT_EVIDENCE_GOSSIP_CONFIG,
    maxAgeNumBlocks: deps.chainState().consensusParams.evidence.maxAgeNumBlocks,
  });
  const loop = createLoop<
    EvidenceGossipState,
    EvidenceGossipInput,
    EvidenceGossipEffect,
    EvidenceGossipInput
  >({
    initialState: latest,
    reducer: evidenceGossipReducer,
    sources: [peerInputs$, poolInputs$],
    stamp: (input) => input,
    toInput: (record) => record,
    handlers: [handler],
    onFault: (fault) => deps.onFault(fault),
  });
  const running = loop.state$.subscribe((s) => {
    latest = s;
  });
  running.add(loop.start());

  // Receiving: one message at a time (the pool's checks may read the stores).
  running.add(
    hub
      .channel$(CHANNEL_EVIDENCE)
      .pipe(
        concatMap(async (m) => {
          const decoded = decodeEvidenceMessage(m.bytes);
          if (decoded.kind === "invalid") {
            log.info("peer sent a bad evidence message", { peer: m.peerId, reason: decoded.reason });
            layer.reportPeer(m.peerId, `evidence channel 0x38: ${decoded.reason}`);
            return;
          }
          for (const item of decoded.evidence) {
            const receipt = await deps.pool
              .receive(item, deps.chainState(), deps.verify)
              .catch((error: Error) => {
                log.error("checking a peer's evidence failed", { peer: m.peerId, err: error.message });
                return undefined;
              });
            if (receipt?.kind === "invalid") {
              log.info("peer sent invalid evidence", { peer: m.peerId, reason: receipt.reason });
              layer.reportPeer(m.peerId, `evidence channel 0x38: invalid evidence: ${receipt.reason}`);
              return;
            }
            if (receipt?.kind === "ignored")
              log.debug("peer evidence ignored", { peer: m.peerId, why: receipt.why });
          }
        }),
      )
      .subscribe(),
  );
  return { state: () => latest, stop: () => running.unsubscribe() };
}
