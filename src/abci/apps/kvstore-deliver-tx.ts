// The kvstore's answer to one key=value DeliverTx as one object. Its events (one "app" event: the
// creator, the tx's key, two constant attributes) are made each time they are read, not kept.
//
// Why: a height's results live from DeliverTx until the height is indexed after Commit, a second
// or so, through several of the young generation's collections, and a collection costs what
// survives it. As plain objects each result was six (the response, its events array, the event,
// the attributes array, the key's attribute, the key's view), copied by every collection it
// lived through. Their readers (the responses record's encoder, the tx index, the event bus when
// someone subscribes) each read the events once or twice, and what they are given then dies young.
import type { Event, ResponseDeliverTx } from "../../wire/generated/tendermint/abci/types.js";
import { CODE_OK } from "./codes.js";
import { attribute } from "./responses.js";

const utf8 = new TextEncoder();
const EMPTY = new Uint8Array(0);
// Shared, never mutated: the constant attributes of every DeliverTx event.
const CREATOR = attribute("creator", "Cosmoshi Netowoko");
const INDEX_KEY = attribute("index_key", "index is working");
const NOINDEX_KEY = attribute("noindex_key", "index is working", false);
const KEY = utf8.encode("key");

export class KvstoreDeliverTx implements ResponseDeliverTx {
  readonly code = CODE_OK;
  readonly data = EMPTY;
  readonly log = "";
  readonly info = "";
  readonly gasWanted = 0n;
  readonly gasUsed = 0n;
  readonly codespace = "";
  readonly #tx: Uint8Array;
  readonly #keyEnd: number;

  /** The answer to `tx`, whose key is `tx[0, keyEnd)` (the whole tx when it is its own key). */
  constructor(tx: Uint8Array, keyEnd: number) {
    this.#tx = tx;
    this.#keyEnd = keyEnd;
  }

  /** A fresh list on every read: a reader that keeps it keeps its own copy. */
  get events(): Event[] {
    const tx = this.#tx;
    const key = this.#keyEnd === tx.length ? tx : tx.subarray(0, this.#keyEnd);
    return [
      { type: "app", attributes: [CREATOR, { key: KEY, value: key, index: true }, INDEX_KEY, NOINDEX_KEY] },
    ];
  }
}
