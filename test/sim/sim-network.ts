// The in-memory network between simulated validators, on the shared virtual clock. Until the
// scenario's heal time it loses and duplicates messages at random and cuts the links between
// partition sides; every message gets a random delay, so messages overtake each other (reorder).
// A lost message stands for a broken connection (TCP never loses one silently): `onLost` tells the
// run, which reconnects the pair once the link is up, and both validators' gossip starts that peer
// over (NewRoundStep, then whatever it lacks). After the heal time nothing is lost and every link
// is up, which is what liveness after healing rests on.
import type { SchedulerLike } from "rxjs";
import type { ConsensusMessage } from "../../src/consensus/gossip/message.js";
import type { Prng } from "./prng.js";
import type { Scenario } from "./scenario.js";

/** What travels between validators: consensus reactor messages (tendermint.consensus.Message). */
export type PeerMessage = ConsensusMessage;

/** Decides whether a message is lost on purpose (scripted faults); true drops it. */
export type MessageFilter = (from: number, to: number, message: PeerMessage, nowMs: number) => boolean;

export interface NetworkStats {
  sent: number;
  lost: number;
  duplicated: number;
  delivered: number;
}

export class SimNetwork {
  readonly stats: NetworkStats = { sent: 0, lost: 0, duplicated: 0, delivered: 0 };
  filter: MessageFilter | undefined;
  private readonly sideOf: Int32Array[];
  /** Per link (from·1024+to), the messages of the current instant waiting to travel together. */
  private readonly batches = new Map<number, { at: number; messages: PeerMessage[] }>();

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly prng: Prng,
    private readonly scenario: Scenario,
    private readonly deliver: (to: number, from: number, message: PeerMessage) => void,
    private readonly onLost: (from: number, to: number) => void = () => {},
  ) {
    // For each partition, the side of every validator (-1: on none, so cut from all sides).
    this.sideOf = scenario.partitions.map((p) => {
      const side = new Int32Array(scenario.validators).fill(-1);
      p.sides.forEach((members, s) => {
        for (const m of members) side[m] = s;
      });
      return side;
    });
  }

  get healed(): boolean {
    return this.scheduler.now() >= this.scenario.network.healAtMs;
  }

  /** Whether the link between `a` and `b` is up now. */
  linkUp(a: number, b: number): boolean {
    const now = this.scheduler.now();
    const partitions = this.scenario.partitions;
    for (let p = 0; p < partitions.length; p++) {
      const partition = partitions[p]!;
      if (now < partition.fromMs || now >= partition.untilMs) continue;
      const side = this.sideOf[p]!;
      if (side[a] !== side[b] || side[a] === -1) return false;
    }
    return true;
  }

  send(from: number, to: number, message: PeerMessage): void {
    this.stats.sent++;
    const now = this.scheduler.now();
    if (!this.linkUp(from, to) || this.filter?.(from, to, message, now)) {
      this.stats.lost++;
      this.onLost(from, to);
      return;
    }
    const faults = this.scenario.network;
    const faulty = now < faults.healAtMs;
    if (faulty && this.prng.chance(faults.drop)) {
      this.stats.lost++;
      this.onLost(from, to);
      return;
    }
    const duplicated = faulty && this.prng.chance(faults.duplicate);
    // Messages one validator sends one peer at one instant travel together (one delay, in order,
    // as on one connection); those sent at different instants may overtake each other.
    const key = from * 1024 + to;
    const open = this.batches.get(key);
    if (open !== undefined && open.at === now) open.messages.push(message);
    else {
      const batch = { at: now, messages: [message] };
      this.batches.set(key, batch);
      this.scheduler.schedule(
        () => {
          if (this.batches.get(key) === batch) this.batches.delete(key);
          for (const m of batch.messages) {
            this.stats.delivered++;
            this.deliver(to, from, m);
          }
        },
        this.prng.int(faults.minDelayMs, faults.maxDelayMs),
      );
    }
    if (duplicated) {
      this.stats.duplicated++;
      this.scheduler.schedule(
        () => {
          this.stats.delivered++;
          this.deliver(to, from, message);
        },
        this.prng.int(faults.minDelayMs, faults.maxDelayMs),
      );
    }
  }
}
