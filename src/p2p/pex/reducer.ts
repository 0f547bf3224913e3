// PEX as a pure reducer: (state, input) → state and effects. The address book is an immutable
// value inside the state; saving it is an effect.

import { addPrivateIds } from "../addrbook/book.js";
import { onAddrsReceived } from "./handlers/addrs.js";
import { onEnsurePeersTicked } from "./handlers/ensure-peers.js";
import {
  onAddressesGiven,
  onDialFailed,
  onDialSucceeded,
  onMarkedGood,
  onPeerAdded,
  onPeerRemoved,
} from "./handlers/peers.js";
import { punish } from "./handlers/punish.js";
import { onRequestReceived } from "./handlers/requests.js";
import type { PexResult } from "./handlers/result.js";
import type { PexInput } from "./input.js";
import type { PexState } from "./state.js";

export type { PexResult } from "./handlers/result.js";

export function pexReducer(state: PexState, input: PexInput): PexResult {
  switch (input.type) {
    case "PexPeerAdded":
      return onPeerAdded(state, input);
    case "PexPeerRemoved":
      return onPeerRemoved(state, input);
    case "PexRequestReceived":
      return onRequestReceived(state, input);
    case "PexAddrsReceived":
      return onAddrsReceived(state, input);
    case "PexMessageInvalid":
      return state.peers.has(input.from)
        ? punish(state, input.from, input.reason, input.time)
        : { state, effects: [] };
    case "PexEnsurePeersTicked":
      return onEnsurePeersTicked(state, input);
    case "PexDialFailed":
      return onDialFailed(state, input);
    case "PexDialSucceeded":
      return onDialSucceeded(state, input);
    case "PexAddressesGiven":
      return onAddressesGiven(state, input);
    case "PexPeerMarkedGood":
      return onMarkedGood(state, input);
    case "PexPrivateIdsAdded": {
      const book = addPrivateIds(state.book, input.ids);
      return { state: { ...state, book, dirty: true }, effects: [] };
    }
    case "PexSaveTicked":
      return state.dirty
        ? { state: { ...state, dirty: false }, effects: [{ type: "SaveAddrBook", book: state.book }] }
        : { state, effects: [] };
  }
}
