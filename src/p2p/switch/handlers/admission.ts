// A finished handshake becomes a peer unless v0.34's admission rules say no, in its order:
// the inbound limit (unconditional ids exempt), a duplicate id, ourselves.
// Two nodes that dial each other at the same moment each end up with two connections; if each
// kept its first, both could close different ones and lose each other. Both sides therefore keep
// the connection dialled by the node with the lower id, and drop the other.
import type { SwitchInput } from "../input.js";
import type { Peer, SwitchState } from "../state.js";
import { peerCounts } from "../state.js";
import { failPending } from "./loss.js";
import type { SwitchResult } from "./result.js";

export function onConnectionUpgraded(
  state: SwitchState,
  input: Extract<SwitchInput, { type: "ConnectionUpgraded" }>,
): SwitchResult {
  const pending = state.pending.get(input.connId);
  if (pending === undefined) {
    // cut at its deadline (or closed) while the handshake finished: the adapter closes it
    return {
      state: { ...state, time: input.time },
      effects: [
        { type: "CloseConnection", connId: input.connId, reason: "handshake finished after its deadline" },
      ],
    };
  }
  const unconditional = state.config.unconditionalIds.has(input.id);
  let refusal: string | undefined;
  if (!pending.outbound && !unconditional && peerCounts(state).inbound >= state.config.maxInbound)
    refusal = `inbound peer limit reached (max_num_inbound_peers = ${state.config.maxInbound})`;
  else if (state.peers.has(input.id) && !preferNew(state, input.id, pending.outbound))
    refusal = "duplicate peer id: already connected";
  else if (input.id === state.config.ourId) refusal = "connection to ourselves";
  if (refusal !== undefined) {
    return failPending({ ...state, time: input.time }, input.connId, refusal, input.time, 0, { close: true });
  }
  const address = pending.outbound ? pending.address : input.listenAddress;
  const persistent = state.persistent.get(input.id);
  const peer: Peer = {
    id: input.id,
    connId: input.connId,
    outbound: pending.outbound,
    ip: input.ip,
    port: input.port,
    address,
    persistent: persistent !== undefined,
    unconditional,
    addedAt: input.time,
  };
  const effects: SwitchResult["effects"] = [];
  const replaced = state.peers.get(input.id);
  if (replaced) {
    effects.push({
      type: "DisconnectPeer",
      id: input.id,
      connId: replaced.connId,
      reason: "replaced by the connection the lower node id dialled",
      error: false,
    });
  }
  effects.push({ type: "AdmitPeer", peer });
  const pendingNext = new Map(state.pending);
  pendingNext.delete(input.connId);
  const peers = new Map(state.peers);
  peers.set(input.id, peer);
  let persistentNext = state.persistent;
  if (persistent) {
    const m = new Map(state.persistent);
    m.set(input.id, { ...persistent, failures: 0, nextDialAt: undefined, gaveUp: false });
    persistentNext = m;
  }
  // a dial scheduled for this id is moot now
  const scheduled = state.scheduled.filter((s) => s.address.id !== input.id);
  return {
    state: { ...state, time: input.time, pending: pendingNext, peers, persistent: persistentNext, scheduled },
    effects,
  };
}

/** The new connection wins a duplicate only when the lower id dialled it and the existing one was not. */
function preferNew(state: SwitchState, id: string, newOutbound: boolean): boolean {
  const weAreLower = state.config.ourId < id;
  const existing = state.peers.get(id)!;
  return newOutbound === weAreLower && existing.outbound !== weAreLower;
}
