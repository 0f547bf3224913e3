// Mempool gossip on channel 0x30 (v0.34's mempool reactor): a pure reducer over one cursor per
// peer that offers each admitted tx once to each peer that did not send it to us, one tx per
// message (several messages per send), waiting for peers too far behind. Receiving is the channel codec's decode
// (src/p2p/mempool-wire.ts) followed by the mempool's own admission (CheckTx with the sender).
export * from "./effect.js";
export * from "./input.js";
export { type MempoolGossipTransition, mempoolGossipReducer } from "./reducer.js";
export * from "./state.js";
