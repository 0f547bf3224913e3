// One simulated validator's consensus reactor: the node's gossip reducer (src/consensus/gossip)
// with its effects carried out on the virtual network and clock. Sends go to the network as typed
// consensus messages (the receiving node passes them through the wire codec); the tick is one
// scheduled action on the virtual clock; a catch-up load is answered from the validator's stored
// blocks, at once; a peer the reducer reports is a rejected message for the run's checker.
// Inputs the effects produce are queued, never folded re-entrantly.
import type { Subscription, VirtualTimeScheduler } from "rxjs";
import {
  type GossipEffect,
  type GossipInput,
  type GossipState,
  gossipReducer,
  initialGossipState,
} from "../../src/consensus/gossip/index.js";
import type { ConsensusMessage } from "../../src/consensus/gossip/message.js";
import type { ConsensusState } from "../../src/consensus/state.js";

export interface SimGossipPorts {
  readonly index: number;
  readonly scheduler: VirtualTimeScheduler;
  /** ms of our clock at virtual instant 0 (the genesis time). */
  readonly epochMs: number;
  send(to: number, message: ConsensusMessage): void;
  stored(height: bigint): GossipInput | undefined;
  reported(peer: number, reason: string): void;
}

export const peerIdOf = (index: number) => `v${index}`;
export const indexOfPeer = (peerId: string) => Number(peerId.slice(1));

export class SimGossip {
  state: GossipState = initialGossipState();
  private readonly queue: GossipInput[] = [];
  private folding = false;
  private tick: Subscription | undefined;
  private stopped = false;

  constructor(private readonly ports: SimGossipPorts) {}

  get nowMs(): number {
    return this.ports.epochMs + this.ports.scheduler.now();
  }

  peerAdded(peer: number): void {
    this.feed({ type: "GossipPeerAdded", nowMs: this.nowMs, peerId: peerIdOf(peer) });
  }

  peerRemoved(peer: number): void {
    this.feed({ type: "GossipPeerRemoved", nowMs: this.nowMs, peerId: peerIdOf(peer) });
  }

  received(from: number, message: ConsensusMessage): void {
    this.feed({ type: "GossipMessageReceived", nowMs: this.nowMs, peerId: peerIdOf(from), message });
  }

  ourState(state: ConsensusState): void {
    this.feed({ type: "OurStateChanged", nowMs: this.nowMs, state });
  }

  stop(): void {
    this.stopped = true;
    this.tick?.unsubscribe();
    this.tick = undefined;
  }

  private feed(input: GossipInput): void {
    if (this.stopped) return;
    this.queue.push(input);
    if (this.folding) return;
    this.folding = true;
    try {
      for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
        const t = gossipReducer(this.state, next);
        this.state = t.state;
        for (const e of t.effects) this.carryOut(e);
      }
    } finally {
      this.folding = false;
    }
  }

  private carryOut(e: GossipEffect): void {
    switch (e.type) {
      case "SendToPeer":
        this.ports.send(indexOfPeer(e.peerId), e.message);
        return;
      case "BroadcastToPeers":
        for (const id of this.state.peers.keys()) this.ports.send(indexOfPeer(id), e.message);
        return;
      case "ReportPeer":
        this.ports.reported(indexOfPeer(e.peerId), e.reason);
        return;
      case "LoadStoredBlock": {
        const answer = this.ports.stored(e.height) ?? {
          type: "StoredBlockMissing",
          nowMs: this.nowMs,
          height: e.height,
        };
        this.queue.push(answer);
        return;
      }
      case "ScheduleTick": {
        this.tick?.unsubscribe();
        const delay = Math.max(0, e.atMs - this.nowMs);
        this.tick = this.ports.scheduler.schedule(() => {
          this.tick = undefined;
          this.feed({ type: "GossipTicked", nowMs: this.nowMs });
        }, delay);
        return;
      }
    }
  }
}
