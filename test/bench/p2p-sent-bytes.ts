// The bytes a network bench's nodes handed their peers, by reactor message type, read from each
// node's Prometheus text (`<namespace>_p2p_message_send_bytes_total{message_type="…"}`, counted
// when a connection queues a message: secret-connection and packet framing not included). Every
// byte sent is sealed by its sender and opened by its receiver, one ChaCha20-Poly1305 call per
// 1 KiB frame on each side, so these totals say where the peer path's cipher and socket time
// goes, and how much of it carried something the receiver already had (a block's parts need
// reach each other validator once: validators − 1 copies of the block's bytes).

/** One series: other labels (the registry's chain_id) may come before or after message_type. */
const SENT_BYTES_SERIES =
  /^\w+_p2p_message_send_bytes_total\{(?:[^}]*,)?message_type="([^"]*)"[^}]*\}\s+(\S+)/;

/** `<namespace>_p2p_message_send_bytes_total` summed by message type over one node's text. */
export function sentBytesByType(metricsText: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of metricsText.split("\n")) {
    const m = SENT_BYTES_SERIES.exec(line);
    if (m === null) continue;
    const value = Number(m[2]);
    if (!Number.isFinite(value))
      throw new Error(`p2p sent bytes: message type ${m[1]} has the value "${m[2]}", not a number`);
    out.set(m[1]!, (out.get(m[1]!) ?? 0) + value);
  }
  return out;
}

/** Sums several nodes' maps (sentBytesByType of each). */
export function sumByType(maps: readonly Map<string, number>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const map of maps) for (const [type, bytes] of map) out.set(type, (out.get(type) ?? 0) + bytes);
  return out;
}

/**
 * What was sent between two readings (`after` − `before`, types absent before counted from 0), per
 * committed tx, largest first, with the total under "all".
 */
export function bytesPerTx(
  before: Map<string, number>,
  after: Map<string, number>,
  txs: number,
): Record<string, number> {
  if (!(txs > 0)) throw new Error(`p2p sent bytes: per-tx figures need committed txs, got ${txs}`);
  const rows: [string, number][] = [];
  let all = 0;
  for (const [type, bytes] of after) {
    const sent = bytes - (before.get(type) ?? 0);
    if (sent <= 0) continue;
    rows.push([type, sent / txs]);
    all += sent;
  }
  rows.sort((a, b) => b[1] - a[1]);
  return Object.fromEntries([["all", all / txs], ...rows]);
}
