// Connections that end: a dial or handshake that failed or ran past its deadline, a peer that
// disconnected, a peer someone asked to stop. A persistent peer lost to an error is redialled on
// v0.34's schedule (backoff.ts); one we stopped on purpose is not.
import { dialString, type NetAddress } from "../../net-address.js";
import { redialDelayMs } from "../backoff.js";
import type { SwitchEffect } from "../effect.js";
import type { SwitchInput } from "../input.js";
import { randomFrom } from "../random.js";
import type { PersistentPeer, SwitchState } from "../state.js";
import type { SwitchResult } from "./result.js";

/** Drops a pending connection; a persistent dial that failed gets its next dial scheduled. */
export function failPending(
  state: SwitchState,
  connId: string,
  reason: string,
  time: number,
  seed: number,
  options: { close: boolean; self?: boolean },
): SwitchResult {
  const pending = state.pending.get(connId);
  const effects: SwitchEffect[] = options.close ? [{ type: "CloseConnection", connId, reason }] : [];
  if (pending === undefined) return { state, effects };
  const rest = new Map(state.pending);
  rest.delete(connId);
  let next: SwitchState = { ...state, pending: rest };
  if (pending.outbound && pending.address && options.self) {
    const ours = new Set(state.ourAddresses);
    ours.add(dialString(pending.address));
    next = { ...next, ourAddresses: ours };
  }
  if (pending.outbound && pending.address) {
    const r = scheduleRedial(next, pending.address, time, seed, 1);
    next = r.state;
    effects.push(...r.effects);
  }
  return { state: next, effects };
}

/** Counts `addFailures` more failures of a persistent peer and schedules its next dial. */
function scheduleRedial(
  state: SwitchState,
  address: NetAddress,
  time: number,
  seed: number,
  addFailures: number,
): SwitchResult {
  const entry = state.persistent.get(address.id);
  if (entry === undefined || entry.gaveUp) return { state, effects: [] };
  const failures = entry.failures + addFailures;
  const delay =
    failures === 0 ? 0 : redialDelayMs(failures, state.config.persistentMaxDialPeriodMs, randomFrom(seed));
  const persistent = new Map(state.persistent) as Map<string, PersistentPeer>;
  if (delay === undefined) {
    persistent.set(address.id, { ...entry, failures, nextDialAt: undefined, gaveUp: true });
    return {
      state: { ...state, persistent },
      effects: [{ type: "RedialAbandoned", address: entry.address, failures }],
    };
  }
  persistent.set(address.id, { ...entry, failures, nextDialAt: time + delay });
  return {
    state: { ...state, persistent },
    effects: [{ type: "RedialScheduled", address: entry.address, failures, delayMs: delay }],
  };
}

export function onConnectionFailed(
  state: SwitchState,
  input: Extract<SwitchInput, { type: "ConnectionFailed" }>,
): SwitchResult {
  return failPending({ ...state, time: input.time }, input.connId, input.reason, input.time, input.seed, {
    close: false,
    ...(input.self ? { self: true } : {}),
  });
}

export function onPeerDisconnected(
  state: SwitchState,
  input: Extract<SwitchInput, { type: "PeerDisconnected" }>,
): SwitchResult {
  const peer = state.peers.get(input.id);
  if (peer === undefined || peer.connId !== input.connId)
    return { state: { ...state, time: input.time }, effects: [] };
  const peers = new Map(state.peers);
  peers.delete(input.id);
  let next: SwitchState = { ...state, time: input.time, peers };
  if (!input.error || !peer.persistent) return { state: next, effects: [] };
  // v0.34 redials the dialled address (outbound) or the self-reported one (inbound), at once
  const entry = next.persistent.get(input.id);
  if (entry === undefined) return { state: next, effects: [] };
  const address = peer.outbound ? entry.address : (peer.address ?? entry.address);
  const persistent = new Map(next.persistent);
  persistent.set(input.id, { ...entry, address, failures: 0, gaveUp: false });
  next = { ...next, persistent };
  return scheduleRedial(next, address, input.time, input.seed, 0);
}

export function onStopPeerRequested(
  state: SwitchState,
  input: Extract<SwitchInput, { type: "StopPeerRequested" }>,
): SwitchResult {
  const peer = state.peers.get(input.id);
  if (peer === undefined) return { state: { ...state, time: input.time }, effects: [] };
  return {
    state: { ...state, time: input.time },
    effects: [
      { type: "DisconnectPeer", id: input.id, connId: peer.connId, reason: input.reason, error: input.error },
    ],
  };
}
