// broadcast_tx_commit's wait: admission first (the CheckTx answer comes back at once when the tx
// is not admitted), then the tx's Tx event, up to a time limit. The waiter registers before the tx
// is submitted, so a block committed in between is never missed.
// One subscription to the event bus for all waiting callers, each Tx event looked up by its hash
// in a Map (not one filter per caller run on every event); the subscription is dropped while
// nobody waits, so the bus skips building Tx events no one reads.
import type { Observable, Subscription } from "rxjs";
import type { ResponseDeliverTx, TxResult } from "../../src/wire/generated/tendermint/abci/types.js";
import { NodeError } from "../node-errors.js";
import type { NodeEvent, SubmitResult, TxCommitResult } from "../node-handle.js";

export class TxCommitWaiter {
  private readonly waiting = new Map<string, ((txResult: TxResult) => void)[]>();
  private subscription: Subscription | undefined;

  constructor(private readonly events$: Observable<NodeEvent>) {}

  async submitAndWait(
    submit: () => Promise<SubmitResult>,
    hash: string,
    timeoutMs: number,
  ): Promise<TxCommitResult | SubmitResult> {
    let settle!: (txResult: TxResult | undefined) => void;
    const committed = new Promise<TxResult | undefined>((resolve) => {
      settle = resolve;
    });
    const stop = this.watch(hash, settle);
    const timer = setTimeout(() => settle(undefined), timeoutMs);
    try {
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
    } finally {
      clearTimeout(timer);
      stop();
    }
  }

  private watch(hash: string, resolve: (txResult: TxResult) => void): () => void {
    let list = this.waiting.get(hash);
    if (!list) {
      list = [];
      this.waiting.set(hash, list);
    }
    list.push(resolve);
    this.subscription ??= this.events$.subscribe((e) => this.onEvent(e));
    return () => {
      const current = this.waiting.get(hash);
      if (current) {
        const i = current.indexOf(resolve);
        if (i >= 0) current.splice(i, 1);
        if (current.length === 0) this.waiting.delete(hash);
      }
      this.release();
    };
  }

  private onEvent(e: NodeEvent): void {
    if (e.type !== "Tx") return;
    const hash = e.events["tx.hash"]?.[0];
    const list = hash === undefined ? undefined : this.waiting.get(hash);
    if (!list) return;
    this.waiting.delete(hash!);
    const { txResult } = e.data as { txResult: TxResult };
    for (const resolve of list) resolve(txResult);
  }

  private release(): void {
    if (this.waiting.size > 0 || !this.subscription) return;
    this.subscription.unsubscribe();
    this.subscription = undefined;
  }
}

/** One caller's wait, on a waiter of its own (tests; the node shares one TxCommitWaiter). */
export function submitAndWaitForCommit(
  events$: Observable<NodeEvent>,
  submit: () => Promise<SubmitResult>,
  hash: string,
  timeoutMs: number,
): Promise<TxCommitResult | SubmitResult> {
  return new TxCommitWaiter(events$).submitAndWait(submit, hash, timeoutMs);
}
