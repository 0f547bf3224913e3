// v0.34's punishment for PEX abuse: the peer is stopped, and if the book knows its id, the
// address is banned for 24 h.
import { hasId, markBad } from "../../addrbook/book.js";
import type { PexState } from "../state.js";
import type { PexResult } from "./result.js";

export function punish(state: PexState, id: string, reason: string, time: number): PexResult {
  const known = state.book.addrs.get(id);
  const book = known && hasId(state.book, id) ? markBad(state.book, known.addr, time) : state.book;
  return {
    state: { ...state, book, dirty: state.dirty || book !== state.book },
    effects: [{ type: "StopPeer", id, reason: known ? `${reason} (banned for 24h)` : reason, error: true }],
  };
}
