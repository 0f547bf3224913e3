// The mempool metrics as a projection of the mempool loop's effects and state (v0.34's names):
// failed = CheckTx said no, rejected = the pool was full, evicted = dropped after admission
// (failed recheck, ttl, flush), recheck_times = rechecks run, tx_size_bytes = admitted txs' sizes.
import type { Observable, Subscription } from "rxjs";
import type { MempoolEffect } from "../../src/mempool/effect.js";
import type { MempoolState } from "../../src/mempool/state.js";
import type { NodeMetrics } from "../../src/metrics/node-metrics.js";

export interface MempoolMetricsSource {
  effect$: Observable<MempoolEffect>;
  state(): MempoolState;
}

export function projectMempoolMetrics(mempool: MempoolMetricsSource, metrics: NodeMetrics): Subscription {
  const m = metrics.mempool;
  // Sizes are read when scraped: always current, and nothing to do per tx.
  m.readSizeFrom(() => {
    const s = mempool.state();
    return { txs: s.txs.size, bytes: s.txsBytes };
  });
  const sizes = new Map<string, number>();
  return mempool.effect$.subscribe((e) => {
    switch (e.type) {
      case "RunCheckTx":
        sizes.set(e.hash, e.tx.length);
        return;
      case "RunCheckTxs":
        for (const t of e.txs) sizes.set(t.hash, t.tx.length);
        return;
      case "AdmissionDecided": {
        const size = sizes.get(e.hash);
        sizes.delete(e.hash);
        const o = e.outcome;
        if (o.kind === "added") {
          if (size !== undefined) m.txSizeBytes.observe(size);
        } else if (o.kind === "invalid") m.failedTxs.inc();
        else if (o.refusal.code === "MEMPOOL_FULL") m.rejectedTxs.inc();
        return;
      }
      case "TxsEvicted":
        m.evictedTxs.inc(e.hashes.length);
        return;
      case "RunRecheck":
        m.recheckTimes.inc();
        return;
    }
  });
}
