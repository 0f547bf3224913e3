// Randomness for pure reducers: an input carries a 32-bit `seed` drawn when it entered (as its
// time is stamped), and the reducer derives every jitter it needs from it, so a recorded run
// replays the same delays.

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
export function randomFrom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number of milliseconds in [0, maxMs). */
export const jitterMs = (random: () => number, maxMs: number): number => Math.floor(random() * maxMs);

/** Fisher–Yates with the given generator. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
