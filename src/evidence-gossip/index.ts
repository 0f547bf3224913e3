// Evidence gossip on channel 0x38 (v0.34's evidence reactor): a pure reducer over one walk per
// peer that sends pending evidence one item per message to peers above its height, again every
// broadcast interval. Receiving is the channel codec's decode (src/p2p/evidence-wire.ts) followed
// by the pool's own check, the one block validation uses.
export * from "./effect.js";
export * from "./input.js";
export { type EvidenceGossipTransition, evidenceGossipReducer } from "./reducer.js";
export * from "./state.js";
