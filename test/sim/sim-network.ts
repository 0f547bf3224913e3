// The in-memory network between simulated validators, on the shared virtual clock. Until the
// scenario's heal time it loses and duplicates messages at random and cuts the links between
// partition sides; every message gets a random delay, so messages overtake each other (reorder).
// After the heal time nothing is lost and every link is up: with the validators' gossip,
// whatever was lost is sent again, which is what liveness after healing rests on.
import type { SchedulerLike } from "rxjs";
import type { BlockPartReceived, ProposalReceived, VoteReceived } from "../../src/consensus/input.js";
import type { Prng } from "./prng.js";
import type { Scenario } from "./scenario.js";

/** What travels between validators: the inputs a peer message becomes (stamped on arrival). */
export type PeerMessage = ProposalReceived | BlockPartReceived | VoteReceived;

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

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly prng: Prng,
    private readonly scenario: Scenario,
    private readonly deliver: (to: number, from: number, message: PeerMessage) => void,
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
      return;
    }
    const faults = this.scenario.network;
    const faulty = now < faults.healAtMs;
    if (faulty && this.prng.chance(faults.drop)) {
      this.stats.lost++;
      return;
    }
    const copies = faulty && this.prng.chance(faults.duplicate) ? 2 : 1;
    if (copies === 2) this.stats.duplicated++;
    for (let c = 0; c < copies; c++) {
      const delay = this.prng.int(faults.minDelayMs, faults.maxDelayMs);
      this.scheduler.schedule(() => {
        this.stats.delivered++;
        this.deliver(to, from, message);
      }, delay);
    }
  }

  broadcast(from: number, message: PeerMessage): void {
    for (let to = 0; to < this.scenario.validators; to++) if (to !== from) this.send(from, to, message);
  }
}
