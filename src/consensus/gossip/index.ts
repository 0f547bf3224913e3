// The consensus gossip module: v0.34's consensus reactor (channels 0x20–0x23) as a pure reducer
// over per-peer round state and our consensus state. It owns what we believe each peer holds and
// what to send it next; the wiring (streams/reactors/consensus-gossip.ts) carries its effects out.
export { type Bits, bitsFromWire, bitsToWire } from "./bit-array.js";
export type * from "./effect.js";
export type * from "./input.js";
export type { ConsensusMessage } from "./message.js";
export { INITIAL_PEER_ROUND_STATE, type PeerRoundState } from "./peer-round-state.js";
export { type GossipTransition, gossipReducer } from "./reducer.js";
export {
  DEFAULT_GOSSIP_CONFIG,
  type GossipConfig,
  type GossipState,
  initialGossipState,
  type PeerGossip,
} from "./state.js";
