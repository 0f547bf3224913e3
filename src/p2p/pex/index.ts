// PEX (src/p2p/pex): the peer-exchange protocol of channel 0x00 as a pure reducer over the
// address book, with v0.34's request rate rule, bans, seed dialling, seed mode and ensure-peers.
export type { PexEffect } from "./effect.js";
export { CRAWL_INTERVAL_MS } from "./handlers/ensure-peers.js";
export { MAX_ATTEMPTS_TO_DIAL } from "./handlers/peers.js";
export { SEED_BIAS_NEW_PERCENT } from "./handlers/requests.js";
export type { PexInput } from "./input.js";
export {
  decodePexMessage,
  encodePexAddrs,
  encodePexRequest,
  PEX_CHANNEL,
  PEX_MAX_MESSAGE_BYTES,
  type PexMessage,
  type WireAddress,
} from "./messages.js";
export { type PexResult, pexReducer } from "./reducer.js";
export { initialPexState, type PexConfig, type PexPeer, type PexState } from "./state.js";
