// The switch (src/p2p/switch): the peer table, the dial schedule with v0.34's backoff, and the
// limits, as a pure reducer driven by inputs stamped with time and a random seed. The adapters in
// streams/ open sockets, run handshakes and report back; simulations drive it on virtual time.
export { redialDelayMs } from "./backoff.js";
export type { SwitchEffect } from "./effect.js";
export type { SwitchInput } from "./input.js";
export { randomFrom, shuffled } from "./random.js";
export { type SwitchResult, switchReducer } from "./reducer.js";
export {
  type ConnId,
  initialSwitchState,
  isDialingOrConnected,
  type NodeId,
  type Peer,
  type PendingConnection,
  type PersistentPeer,
  peerCounts,
  type SwitchConfig,
  type SwitchState,
} from "./state.js";
