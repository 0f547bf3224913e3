// An accepted socket: v0.34's listener holds at most max_num_inbound_peers + the number of
// unconditional ids open inbound sockets (handshaking or peers), so a flood of connections is
// closed at once instead of each costing a handshake; then the duplicate-IP filter.
import type { SwitchInput } from "../input.js";
import type { SwitchState } from "../state.js";
import { ipInUse } from "./dial.js";
import type { SwitchResult } from "./result.js";

export function inboundSocketCount(state: SwitchState): number {
  let n = 0;
  for (const p of state.peers.values()) if (!p.outbound) n++;
  for (const c of state.pending.values()) if (!c.outbound) n++;
  return n;
}

export function onInboundConnected(
  state: SwitchState,
  input: Extract<SwitchInput, { type: "InboundConnected" }>,
): SwitchResult {
  const at = { ...state, time: input.time };
  const cap = state.config.maxInbound + state.config.unconditionalIds.size;
  if (inboundSocketCount(state) >= cap) {
    return {
      state: at,
      effects: [
        {
          type: "CloseConnection",
          connId: input.connId,
          reason: `too many inbound connections (limit ${cap})`,
        },
      ],
    };
  }
  if (!state.config.allowDuplicateIp && ipInUse(state, input.ip)) {
    return {
      state: at,
      effects: [
        {
          type: "CloseConnection",
          connId: input.connId,
          reason: `duplicate IP ${input.ip} (allow_duplicate_ip = false)`,
        },
      ],
    };
  }
  const pending = new Map(state.pending);
  pending.set(input.connId, {
    connId: input.connId,
    outbound: false,
    ip: input.ip,
    address: undefined,
    deadline: input.time + state.config.handshakeTimeoutMs,
  });
  return {
    state: { ...at, pending },
    effects: [
      { type: "UpgradeInbound", connId: input.connId, handshakeTimeoutMs: state.config.handshakeTimeoutMs },
    ],
  };
}
