// The switch as a pure reducer: (state, input) → state and effects. It decides who is dialled,
// when, which connection becomes a peer and which is cut; sockets are the adapters' business.

import { onConnectionUpgraded } from "./handlers/admission.js";
import { onDialRequested, onSwitchStarted } from "./handlers/dial.js";
import { onInboundConnected } from "./handlers/inbound.js";
import { onConnectionFailed, onPeerDisconnected, onStopPeerRequested } from "./handlers/loss.js";
import type { SwitchResult } from "./handlers/result.js";
import { onSwitchTicked } from "./handlers/tick.js";
import type { SwitchInput } from "./input.js";
import type { SwitchState } from "./state.js";

export type { SwitchResult } from "./handlers/result.js";

export function switchReducer(state: SwitchState, input: SwitchInput): SwitchResult {
  switch (input.type) {
    case "SwitchStarted":
      return onSwitchStarted(state, input);
    case "SwitchTicked":
      return onSwitchTicked(state, input);
    case "DialRequested":
      return onDialRequested(state, input);
    case "InboundConnected":
      return onInboundConnected(state, input);
    case "ConnectionFailed":
      return onConnectionFailed(state, input);
    case "ConnectionUpgraded":
      return onConnectionUpgraded(state, input);
    case "PeerDisconnected":
      return onPeerDisconnected(state, input);
    case "StopPeerRequested":
      return onStopPeerRequested(state, input);
  }
}
