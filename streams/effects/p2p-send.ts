// The effects every reactor uses to talk to peers: SendToPeer (one peer) and Broadcast (every
// peer that speaks the channel). Reactors (consensus gossip, mempool, evidence, block sync: the
// next issues) emit them as data; this handler puts the bytes on the peers' connections.
import { EMPTY, mergeMap, type Observable } from "rxjs";
import type { PeerHub } from "../sources/peers.js";

export type PeerSendEffect =
  | { type: "SendToPeer"; peerId: string; channelId: number; message: Uint8Array }
  | { type: "Broadcast"; channelId: number; message: Uint8Array };

export function peerSendHandler<E extends { type: string }, I>(hub: PeerHub) {
  return (effect$: Observable<E>): Observable<I> =>
    effect$.pipe(
      mergeMap((e) => {
        const send = e as unknown as PeerSendEffect;
        if (send.type === "SendToPeer") hub.send(send.peerId, send.channelId, send.message);
        else if (send.type === "Broadcast") hub.broadcast(send.channelId, send.message);
        return EMPTY;
      }),
    );
}
