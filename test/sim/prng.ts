// A small seeded PRNG (mulberry32) for the simulation: every random choice of a run (scenario,
// delays, drops, transactions, Byzantine targets) comes from one of these, never Math.random, so
// the same seed replays the same run. `fork` derives an independent stream per purpose, so adding
// draws for one purpose does not shift every other choice of the run.

export class Prng {
  private a: number;
  private readonly seedBase: number;

  constructor(seed: number) {
    this.a = seed >>> 0;
    this.seedBase = this.a;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A random subset in random order (Fisher–Yates on a copy). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }

  /** An independent stream named by `label` (derived from this one's seed, not its position). */
  fork(label: string): Prng {
    let h = this.seedBase ^ 0x9e3779b9;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
    return new Prng(h >>> 0);
  }
}
