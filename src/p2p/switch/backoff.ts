// v0.34's redial schedule of a persistent peer (p2p/switch.go reconnectToPeer), as a function of
// how many dials in a row have failed. Phase 1: 20 attempts, 5 s + 0–3 s after each failure.
// Phase 2: 10 more, waiting 3^i s + 0–3 s (i = 0..9) before each; then v0.34 gives up.
// persistent_peers_max_dial_period > 0 caps every wait and makes the peer redialled for ever
// (v0.34 applies that cap only in its PEX dialler; an operator setting it expects it here too).
import { jitterMs } from "./random.js";

export const PHASE1_ATTEMPTS = 20;
export const PHASE2_ATTEMPTS = 10;
export const PHASE1_INTERVAL_MS = 5_000;
export const JITTER_MS = 3_000;
/** persistent peers are first dialled after 0–3 s, so a testnet's nodes do not all dial at once */
export const START_JITTER_MS = 3_000;

/**
 * Milliseconds to wait before the next dial after `failures` consecutive failures (≥ 1), or
 * undefined when the peer is given up.
 */
export function redialDelayMs(
  failures: number,
  maxDialPeriodMs: number,
  random: () => number,
): number | undefined {
  let delay: number | undefined;
  if (failures < PHASE1_ATTEMPTS) delay = PHASE1_INTERVAL_MS + jitterMs(random, JITTER_MS);
  else if (failures === PHASE1_ATTEMPTS)
    // the last phase-1 sleep, then phase 2's first wait of 3^0 s
    delay = PHASE1_INTERVAL_MS + jitterMs(random, JITTER_MS) + 1_000 + jitterMs(random, JITTER_MS);
  else if (failures < PHASE1_ATTEMPTS + PHASE2_ATTEMPTS)
    delay = 3 ** (failures - PHASE1_ATTEMPTS) * 1_000 + jitterMs(random, JITTER_MS);
  if (maxDialPeriodMs > 0) return Math.min(delay ?? maxDialPeriodMs, maxDialPeriodMs);
  return delay;
}
