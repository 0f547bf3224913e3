// The kvstore's answer to one key=value DeliverTx as one object. Its events (one "app" event: the
// creator, the tx's key, two constant attributes) are made each time they are read, not kept, and
// it writes its own protobuf bytes for the responses record without making them.
//
// Why: a height's results live from DeliverTx until the height is indexed after Commit, a second
// or so, through several of the young generation's collections, and a collection costs what
// survives it. As plain objects each result was six (the response, its events array, the event,
// the attributes array, the key's attribute, the key's view), copied by every collection it
// lived through. Now the record is written from the tx's bytes, and the tx index reads the events
// once, after which they die young.
import type { Event, ResponseDeliverTx } from "../../wire/generated/tendermint/abci/types.js";
import { EventAttribute } from "../../wire/generated/tendermint/abci/types.js";
import type { SelfEncodedDeliverTx } from "../../wire/self-encoded-deliver-tx.js";
import { varintLength, writeVarint } from "../../wire/varint-bytes.js";
import { CODE_OK } from "./codes.js";
import { attribute } from "./responses.js";

const utf8 = new TextEncoder();
const EMPTY = new Uint8Array(0);
// Shared, never mutated: the constant attributes of every DeliverTx event.
const CREATOR = attribute("creator", "Cosmoshi Netowoko");
const INDEX_KEY = attribute("index_key", "index is working");
const NOINDEX_KEY = attribute("noindex_key", "index is working", false);
const KEY = utf8.encode("key");

// Protobuf tags: ResponseDeliverTx.events (7), Event.type (1) and .attributes (2),
// EventAttribute.key (1), .value (2), .index (3).
const TAG_EVENTS = 58;
const TAG_TYPE = 10;
const TAG_ATTRIBUTE = 18;
const TAG_KEY = 10;
const TAG_VALUE = 18;
const TAG_INDEX = 24;

/** An attribute as field 2 of its event: tag, length, its bytes. */
function attributeField(a: EventAttribute): Uint8Array {
  const body = EventAttribute.encode(a).finish();
  const out = new Uint8Array(1 + varintLength(body.length) + body.length);
  out[0] = TAG_ATTRIBUTE;
  out.set(body, writeVarint(out, 1, body.length));
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// The event's bytes around the key's attribute: its type and the creator before, the two index
// attributes after; and the key attribute's own key field.
const BEFORE_KEY = concat(Uint8Array.of(TAG_TYPE, 3), utf8.encode("app"), attributeField(CREATOR));
const AFTER_KEY = concat(attributeField(INDEX_KEY), attributeField(NOINDEX_KEY));
const KEY_FIELD = concat(Uint8Array.of(TAG_KEY, KEY.length), KEY);

/** A kvstore tx's key, `tx[0, keyEnd)`: the tx itself when it is its own key, else a view of it. */
export const keyOfTx = (tx: Uint8Array, keyEnd: number): Uint8Array =>
  keyEnd === tx.length ? tx : tx.subarray(0, keyEnd);

export class KvstoreDeliverTx implements ResponseDeliverTx, SelfEncodedDeliverTx {
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
    const key = keyOfTx(this.#tx, this.#keyEnd);
    return [
      { type: "app", attributes: [CREATOR, { key: KEY, value: key, index: true }, INDEX_KEY, NOINDEX_KEY] },
    ];
  }

  encodedLength(): number {
    const event = this.#eventLength();
    return 1 + varintLength(event) + event;
  }

  encodeInto(out: Uint8Array, at: number): number {
    const keyLength = this.#keyEnd;
    const keyAttribute = this.#keyAttributeLength();
    out[at++] = TAG_EVENTS;
    at = writeVarint(out, at, this.#eventLength());
    out.set(BEFORE_KEY, at);
    at += BEFORE_KEY.length;
    out[at++] = TAG_ATTRIBUTE;
    at = writeVarint(out, at, keyAttribute);
    out.set(KEY_FIELD, at);
    at += KEY_FIELD.length;
    // An empty value is not written (proto3's default), as the generated encoder leaves it out.
    if (keyLength > 0) {
      out[at++] = TAG_VALUE;
      at = writeVarint(out, at, keyLength);
      const tx = this.#tx;
      for (let i = 0; i < keyLength; i++) out[at++] = tx[i]!;
    }
    out[at++] = TAG_INDEX;
    out[at++] = 1;
    out.set(AFTER_KEY, at);
    return at + AFTER_KEY.length;
  }

  /** key field, the value's field when not empty, index = true. */
  #keyAttributeLength(): number {
    const k = this.#keyEnd;
    return KEY_FIELD.length + (k > 0 ? 1 + varintLength(k) + k : 0) + 2;
  }

  #eventLength(): number {
    const keyAttribute = this.#keyAttributeLength();
    return BEFORE_KEY.length + 1 + varintLength(keyAttribute) + keyAttribute + AFTER_KEY.length;
  }
}
