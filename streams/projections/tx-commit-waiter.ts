// broadcast_tx_commit's wait: admission first (the CheckTx answer comes back at once when the tx
// is not admitted), then the tx's Tx event, up to a time limit. The waiter subscribes to the
// event bus before the tx is submitted, so a block committed in between is never missed.
import { filter, firstValueFrom, type Observable, race, timer } from "rxjs";
import { map } from "rxjs/operators";
import type { ResponseDeliverTx, TxResult } from "../../src/wire/generated/tendermint/abci/types.js";
import { NodeError } from "../node-errors.js";
import type { NodeEvent, SubmitResult, TxCommitResult } from "../node-handle.js";

export async function submitAndWaitForCommit(
  events$: Observable<NodeEvent>,
  submit: () => Promise<SubmitResult>,
  hash: string,
  timeoutMs: number,
): Promise<TxCommitResult | SubmitResult> {
  const committed = firstValueFrom(
    race(
      events$.pipe(
        filter((e) => e.type === "Tx" && e.events["tx.hash"]?.[0] === hash),
        map((e) => (e.data as { txResult: TxResult }).txResult),
      ),
      timer(timeoutMs).pipe(map(() => undefined)),
    ),
    { defaultValue: undefined },
  );
  const admitted = await submit();
  if (admitted.outcome.kind !== "added" || admitted.checkTx === undefined) return admitted;
  const txResult = await committed;
  if (txResult === undefined) {
    throw new NodeError(
      "NODE_TX_COMMIT_TIMEOUT",
      `timed out waiting for tx ${hash} to be included in a block (after ${timeoutMs} ms); it may still be committed later`,
      hash,
    );
  }
  return {
    hash,
    checkTx: admitted.checkTx,
    deliverTx: txResult.result as ResponseDeliverTx,
    height: txResult.height,
  };
}
