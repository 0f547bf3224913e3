// Dialling: persistent peers at start, requested dials (now or spread over 0–3 s), and the
// filters applied before a socket is opened (ourselves, already connected or dialling,
// duplicate IP).
import { dialString, type NetAddress } from "../../net-address.js";
import { START_JITTER_MS } from "../backoff.js";
import type { SwitchEffect } from "../effect.js";
import type { SwitchInput } from "../input.js";
import { jitterMs, randomFrom } from "../random.js";
import { isDialingOrConnected, type PersistentPeer, type SwitchState } from "../state.js";
import type { SwitchResult } from "./result.js";

/** Why a dial of `address` must not happen now; undefined when it may. */
export function dialRefusal(state: SwitchState, address: NetAddress): string | undefined {
  if (address.id === state.config.ourId || state.ourAddresses.has(dialString(address)))
    return "it is ourselves";
  if (isDialingOrConnected(state, address.id)) return "already connected or dialling";
  if (!state.config.allowDuplicateIp && ipInUse(state, address.ip))
    return `a connection from ${address.ip} exists`;
  return undefined;
}

export function ipInUse(state: SwitchState, ip: string): boolean {
  for (const p of state.peers.values()) if (p.ip === ip) return true;
  for (const c of state.pending.values()) if (c.ip === ip) return true;
  return false;
}

/** Opens a dial now (the caller checked dialRefusal). */
export function startDial(state: SwitchState, address: NetAddress, time: number): SwitchResult {
  const connId = `d${state.nextConnSeq}`;
  const { dialTimeoutMs, handshakeTimeoutMs } = state.config;
  const pending = new Map(state.pending);
  pending.set(connId, {
    connId,
    outbound: true,
    ip: address.ip,
    address,
    deadline: time + dialTimeoutMs + handshakeTimeoutMs,
  });
  let persistent = state.persistent;
  const entry = persistent.get(address.id);
  if (entry) {
    persistent = new Map(persistent);
    (persistent as Map<string, PersistentPeer>).set(address.id, { ...entry, nextDialAt: undefined });
  }
  const effect: SwitchEffect = {
    type: "Dial",
    connId,
    address,
    dialTimeoutMs,
    handshakeTimeoutMs,
    persistent: entry !== undefined,
  };
  return { state: { ...state, nextConnSeq: state.nextConnSeq + 1, pending, persistent }, effects: [effect] };
}

export function onSwitchStarted(
  state: SwitchState,
  input: Extract<SwitchInput, { type: "SwitchStarted" }>,
): SwitchResult {
  const random = randomFrom(input.seed);
  const persistent = new Map(state.persistent);
  for (const address of input.persistentPeers) {
    if (address.id === state.config.ourId) continue;
    persistent.set(address.id, {
      address,
      failures: 0,
      nextDialAt: input.time + jitterMs(random, START_JITTER_MS),
      gaveUp: false,
    });
  }
  return { state: { ...state, time: input.time, persistent }, effects: [] };
}

export function onDialRequested(
  state: SwitchState,
  input: Extract<SwitchInput, { type: "DialRequested" }>,
): SwitchResult {
  const random = randomFrom(input.seed);
  let next: SwitchState = { ...state, time: input.time };
  if (input.persistent) {
    // dial_peers with persistent=true replaces the whole list, as v0.34's AddPersistentPeers does
    const persistent = new Map<string, PersistentPeer>();
    for (const address of input.addresses) {
      if (address.id === state.config.ourId) continue;
      const old = state.persistent.get(address.id);
      persistent.set(address.id, {
        address,
        failures: old?.failures ?? 0,
        nextDialAt: undefined,
        gaveUp: false,
      });
    }
    next = { ...next, persistent };
  }
  if (input.unconditional) {
    const ids = new Set(state.config.unconditionalIds);
    for (const a of input.addresses) ids.add(a.id);
    next = { ...next, config: { ...next.config, unconditionalIds: ids } };
  }
  const effects: SwitchEffect[] = [];
  const scheduled = [...next.scheduled];
  for (const address of input.addresses) {
    if (input.spread) {
      scheduled.push({ address, at: input.time + jitterMs(random, START_JITTER_MS) });
      continue;
    }
    if (dialRefusal(next, address) !== undefined) continue;
    const r = startDial(next, address, input.time);
    next = r.state;
    effects.push(...r.effects);
  }
  return { state: { ...next, scheduled }, effects };
}
