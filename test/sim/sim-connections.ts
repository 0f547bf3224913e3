// The connections between simulated validators, as TCP gives them: a pair is connected on both
// sides or on neither. A connection opens only over a link that is up; a message lost on it
// breaks it, and both validators' reactors drop the peer (its per-peer gossip state with it); a
// broken or never-opened pair is dialled again by `redial` once both are running and the link is
// up. A lost message between validators that are not connected (a Byzantine validator's own
// sends) breaks nothing.

/** What one validator's side of a connection needs: being told the peer came or went. */
export interface ConnectionEnd {
  readonly index: number;
  readonly alive: boolean;
  connect(peer: number): void;
  disconnect(peer: number): void;
}

const pairKey = (a: number, b: number) => Math.min(a, b) * 1024 + Math.max(a, b);

export class SimConnections {
  /** Pairs connected on both sides. */
  private readonly open = new Set<number>();
  /** Pairs to dial again (broken, or not openable when asked). */
  private readonly pending = new Set<number>();

  constructor(
    private readonly ends: readonly ConnectionEnd[],
    private readonly linkUp: (a: number, b: number) => boolean,
  ) {}

  /**
   * Opens the connection between `a` and `b` (both running), or leaves it to `redial` when their
   * link is down. Each side hears of the other in turn; a message lost while opening breaks it, and
   * then the second side is not told (it never had the peer).
   */
  connect(a: number, b: number): void {
    const key = pairKey(a, b);
    if (this.open.has(key)) return;
    if (!this.linkUp(a, b)) {
      this.pending.add(key);
      return;
    }
    this.pending.delete(key);
    this.open.add(key);
    this.ends[a]!.connect(b);
    if (this.open.has(key)) this.ends[b]!.connect(a);
  }

  /** Every running peer of `node` (a start or restart). */
  connectAll(node: number): void {
    for (const peer of this.ends) if (peer.index !== node && peer.alive) this.connect(node, peer.index);
  }

  /** A message from `from` to `to` was lost: their connection, if open, breaks. */
  lost(from: number, to: number): void {
    const key = pairKey(from, to);
    if (!this.open.delete(key)) return;
    this.pending.add(key);
    this.ends[from]!.disconnect(to);
    this.ends[to]!.disconnect(from);
  }

  /** `node` crashed: its peers drop it; the pairs are opened again when it restarts. */
  crashed(node: number): void {
    for (const peer of this.ends) {
      if (peer.index === node) continue;
      const key = pairKey(node, peer.index);
      this.open.delete(key);
      this.pending.delete(key);
      if (peer.alive) peer.disconnect(node);
    }
  }

  /** Dials again every pending pair whose validators both run and whose link is up. */
  redial(): void {
    for (const key of [...this.pending]) {
      const a = this.ends[Math.floor(key / 1024)]!;
      const b = this.ends[key % 1024]!;
      if (!a.alive || !b.alive) {
        this.pending.delete(key);
        continue;
      }
      if (this.linkUp(a.index, b.index)) this.connect(a.index, b.index);
    }
  }
}
