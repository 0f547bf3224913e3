// Go's blocking Send for the gossip reactors: a channel's send queue is small (one message on
// the mempool and evidence channels) and drains on the connection's next turn, so a full queue
// is tried again on the next few turns, then with growing pauses, until the message is queued,
// the peer is gone, or SEND_TIMEOUT_MS passed (v0.34's Send gives up after 10 s). Emits once:
// whether the connection took the message (or, given several, all of them in order).
import { Observable, type SchedulerLike } from "rxjs";
import type { PeerHub } from "../sources/peers.js";

export const SEND_TIMEOUT_MS = 10_000;
/** Retries on the next event-loop turns before pausing on the scheduler. */
const IMMEDIATE_RETRIES = 8;
const MAX_PAUSE_MS = 100;

export function sendWhenRoom(
  hub: Pick<PeerHub, "send" | "sendAll" | "get">,
  peerId: string,
  channelId: number,
  message: Uint8Array | readonly Uint8Array[],
  scheduler: SchedulerLike,
): Observable<boolean> {
  return new Observable<boolean>((subscriber) => {
    const started = scheduler.now();
    let attempt = 0;
    let cancelled = false;
    let pending: { unsubscribe(): void } | undefined;
    const finish = (delivered: boolean) => {
      subscriber.next(delivered);
      subscriber.complete();
    };
    const tryOnce = () => {
      if (cancelled) return;
      const sent =
        message instanceof Uint8Array
          ? hub.send(peerId, channelId, message)
          : hub.sendAll(peerId, channelId, message);
      if (sent) return finish(true);
      if (hub.get(peerId) === undefined || scheduler.now() - started >= SEND_TIMEOUT_MS) return finish(false);
      attempt++;
      if (attempt <= IMMEDIATE_RETRIES) {
        const handle = setImmediate(tryOnce);
        pending = { unsubscribe: () => clearImmediate(handle) };
      } else {
        pending = scheduler.schedule(tryOnce, Math.min(MAX_PAUSE_MS, 2 ** (attempt - IMMEDIATE_RETRIES - 1)));
      }
    };
    tryOnce();
    return () => {
      cancelled = true;
      pending?.unsubscribe();
    };
  });
}
