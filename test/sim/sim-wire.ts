// The wire between simulated validators: every consensus message crosses the node's codec
// (encodeConsensusMessage, then decodeConsensusWire with its size bound and ValidateBasic), as
// TCP carries it, but once per message rather than once per receiver. A broadcast reaches three
// to six peers with the same object, and a relayed vote is the object a peer decoded; encoding
// and decoding it again gave the same bytes and an equal object each time (about a tenth of a run's
// CPU). So the crossing is remembered per object, and every receiver of a message gets the one
// decoded copy: the node's code treats messages as immutable data, as the reducers' purity
// requires. What a message is keyed by is what its bytes come from: the vote, proposal or part
// object inside the variant's wrapper (the gossip wraps the same vote anew for every send), the
// whole message otherwise. One crossing per run, so nothing is carried from one run to the next.
//
// The announcements that carry no signed object (HasVote, NewRoundStep, NewValidBlock: two thirds
// of a calm run's messages) are made anew by every validator that announces, so four validators
// announcing the same vote sent four objects with equal fields, each crossing the codec. Those are
// also remembered by their content: a key spelling out every field (contentKey), so two messages
// share a crossing exactly when their fields, and so their bytes, are equal.
import type { ConsensusMessage } from "../../src/consensus/gossip/message.js";
import {
  channelOf,
  type DecodedConsensusWire,
  decodeConsensusWire,
  encodeConsensusMessage,
} from "../../src/p2p/consensus-wire.js";

/** The object a message's bytes are a function of (with, for a block part, its height and round). */
function keyOf(m: ConsensusMessage): object {
  switch (m.$case) {
    case "vote":
      return m.vote.vote ?? m;
    case "proposal":
      return m.proposal.proposal;
    case "blockPart":
      return m.blockPart.part;
    default:
      return m;
  }
}

/** Whether a remembered crossing of `key` is the crossing of `m` (a part may travel under another round). */
function sameWrapper(m: ConsensusMessage, crossed: DecodedConsensusWire): boolean {
  if (m.$case !== "blockPart") return true;
  if (crossed.kind !== "ok" || crossed.message.$case !== "blockPart") return false;
  return (
    crossed.message.blockPart.height === m.blockPart.height &&
    crossed.message.blockPart.round === m.blockPart.round
  );
}

/**
 * Freezes a decoded message and every object in it (not the byte arrays: a typed array with
 * elements cannot be frozen). The memos of sign bytes, hashes and validator sets
 * (src/wire/sign-bytes.ts, src/wire/hashes.ts, src/types/validator-set.ts) and this crossing
 * rest on decoded messages never being changed in place; frozen, any node code that assigns a
 * field of one throws (modules are strict code), and the run fails on it.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value))
    return value;
  Object.freeze(value);
  for (const field of Object.values(value)) deepFreeze(field);
  return value;
}

/** The messages remembered by content as well: announcements, no signed object inside. */
const BY_CONTENT: ReadonlySet<ConsensusMessage["$case"]> = new Set([
  "hasVote",
  "newRoundStep",
  "newValidBlock",
]);

/**
 * An exact spelling of plain message data: every own field in order with a tag for its type, byte
 * arrays by their bytes. Equal keys mean equal fields, hence equal encodings and decodings.
 */
export function contentKey(value: unknown): string {
  switch (typeof value) {
    case "bigint":
      return `${value}n`;
    case "number":
    case "boolean":
      return String(value);
    case "string":
      return JSON.stringify(value);
    case "undefined":
      return "u";
    default:
      break;
  }
  if (value === null) return "null";
  if (value instanceof Uint8Array)
    return `b${value.length}:${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`;
  if (Array.isArray(value)) return `[${value.map(contentKey).join(",")}]`;
  if (typeof value === "object") {
    let key = "{";
    for (const [field, v] of Object.entries(value)) key += `${field}:${contentKey(v)};`;
    return `${key}}`;
  }
  throw new TypeError(`a consensus message holds a ${typeof value}`);
}

/** Bound of the content memo: a run's announcements of a few heights; full, it starts again. */
const MAX_BY_CONTENT = 4096;

export class WireCrossing {
  private readonly crossed = new WeakMap<object, DecodedConsensusWire>();
  private readonly byContent = new Map<string, DecodedConsensusWire>();
  /** Messages that went through the codec, and those answered from an earlier crossing. */
  encoded = 0;
  reused = 0;

  /** `message` as a receiver gets it off the wire: decoded and checked, or why it is refused. */
  cross(message: ConsensusMessage): DecodedConsensusWire {
    const key = keyOf(message);
    const known = this.crossed.get(key);
    if (known !== undefined && sameWrapper(message, known)) {
      this.reused++;
      return known;
    }
    const content = BY_CONTENT.has(message.$case) ? contentKey(message) : undefined;
    if (content !== undefined) {
      const same = this.byContent.get(content);
      if (same !== undefined) {
        this.reused++;
        this.crossed.set(key, same);
        return same;
      }
    }
    this.encoded++;
    const decoded = deepFreeze(decodeConsensusWire(encodeConsensusMessage(message), channelOf(message)));
    this.crossed.set(key, decoded);
    if (content !== undefined) {
      if (this.byContent.size >= MAX_BY_CONTENT) this.byContent.clear();
      this.byContent.set(content, decoded);
    }
    // A receiver relaying what it decoded sends these very objects: their bytes are the same.
    if (decoded.kind === "ok") this.crossed.set(keyOf(decoded.message), decoded);
    return decoded;
  }
}
