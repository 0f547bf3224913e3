// The mempool's "txs available" notice as a consensus input (create_empty_blocks = false waits
// for it in round 0). The mempool gives it at most once per height.
import { map, type Observable } from "rxjs";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { UNSTAMPED } from "./stamp-time.js";

export function mempoolTxsAvailableSource(heights$: Observable<bigint>): Observable<ConsensusInput> {
  return heights$.pipe(map((height): ConsensusInput => ({ type: "TxsAvailable", time: UNSTAMPED, height })));
}
