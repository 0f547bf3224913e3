// A peer layer for the reactor tests: peers that join with the given channels, messages pushed in
// by the test, every send and peer report recorded.
import { filter, Subject } from "rxjs";
import type { PeerLifecycleEvent, PeerMessage } from "../../streams/sources/peers.js";

export function fakePeerLayer(
  channels: readonly number[],
  reportPeer?: (peerId: string, reason: string) => void,
) {
  const messages = new Subject<PeerMessage>();
  const peers = new Subject<PeerLifecycleEvent>();
  const sent: { peerId: string; channelId: number; bytes: Uint8Array }[] = [];
  const reported: { peerId: string; reason: string }[] = [];
  const nodeInfo = { channels: Uint8Array.from(channels) };
  const connected = new Set<string>();
  const hub = {
    ids: () => [...connected],
    get: (id: string) => (connected.has(id) ? { remoteNodeInfo: nodeInfo } : undefined),
    peers$: peers.asObservable(),
    channel$: (id: number) => messages.pipe(filter((m) => m.channelId === id)),
    send: (peerId: string, channelId: number, bytes: Uint8Array) => {
      sent.push({ peerId, channelId, bytes });
      return true;
    },
    sendAll: (peerId: string, channelId: number, all: readonly Uint8Array[]) => {
      for (const bytes of all) sent.push({ peerId, channelId, bytes });
      return true;
    },
  };
  const add = (peerId: string) => {
    connected.add(peerId);
    peers.next({ type: "added", peerId, nodeInfo: nodeInfo as never, outbound: true });
  };
  const layer = {
    hub: hub as never,
    reportPeer: reportPeer ?? ((peerId: string, reason: string) => void reported.push({ peerId, reason })),
  };
  return { layer, messages, sent, reported, add };
}
