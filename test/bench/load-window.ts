// Which committed blocks a network bench's load filled, and the committed rate over them.
// The window is cut by the LOAD's own txs, not by "any tx": the time-to-finality clients keep
// committing a tx or two per block while wrk idles out its last seconds (a paced wrk runs
// NETB_SECONDS + 5 s whatever it has left to send), and counting those blocks stretched a
// 15 s load over ~20 s of blocks (one validator at 5,500 tx/s offered showed ~4,000 tx/s).

export interface CommittedBlock {
  /** header time, ms since the epoch */
  readonly time: number;
  /** txs of the load in this block */
  readonly loadTxs: number;
  /** every tx in this block (the load's and the finality clients') */
  readonly txs: number;
}

export interface LoadWindow {
  /** the window's blocks: the block before the load's first one, through its last one */
  readonly blocks: readonly CommittedBlock[];
  /** the load's txs committed in the window */
  readonly loadTxs: number;
  /** header time of the window's last block minus its first, seconds */
  readonly spanSeconds: number;
  /** loadTxs / spanSeconds (0 for an empty span) */
  readonly txPerSecond: number;
}

/**
 * `blocks` runs from the last block committed before the load started to some block after it
 * drained; the window ends at the last block holding a load tx (the start is the first block,
 * so the span covers the first loaded block's whole interval).
 */
export function loadWindow(blocks: readonly CommittedBlock[]): LoadWindow {
  if (blocks.length === 0)
    throw new Error("loadWindow: no blocks (the first must be the one before the load)");
  let last = blocks.length - 1;
  while (last > 0 && blocks[last]!.loadTxs === 0) last--;
  const window = blocks.slice(0, last + 1);
  const loadTxs = window.reduce((sum, b) => sum + b.loadTxs, 0);
  const spanSeconds = (window.at(-1)!.time - window[0]!.time) / 1000;
  return { blocks: window, loadTxs, spanSeconds, txPerSecond: spanSeconds > 0 ? loadTxs / spanSeconds : 0 };
}

/** How many of a block's txs (base64, as /block gives them) start with `prefix`. */
export function countWithPrefix(txsBase64: readonly string[] | null, prefix: string): number {
  if (txsBase64 === null) return 0;
  const want = Buffer.from(prefix);
  let n = 0;
  for (const tx of txsBase64) {
    // decoding the first base64 characters is enough for the prefix (4 characters → 3 bytes)
    const head = Buffer.from(tx.slice(0, Math.ceil(want.length / 3) * 4), "base64");
    if (head.subarray(0, want.length).equals(want)) n++;
  }
  return n;
}
