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
// also remembered by their content: a key spelling out every field (announcementKey: the four or
// five numbers of a HasVote or NewRoundStep written out directly, since a generic walk over the
// fields cost as much as the crossing it saved), so two messages
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

/** A byte array as part of a key: its length, then its bytes one character each. */
const latin1 = (b: Uint8Array) =>
  `${b.length}:${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1")}`;

/**
 * The content key of an announcement, or undefined for a message remembered by its object only.
 * Every field is listed (a test changes each one and sees the key change).
 */
export function announcementKey(m: ConsensusMessage): string | undefined {
  switch (m.$case) {
    case "hasVote": {
      const v = m.hasVote;
      return `h${v.height}/${v.round}/${v.type}/${v.index}`;
    }
    case "newRoundStep": {
      const s = m.newRoundStep;
      return `s${s.height}/${s.round}/${s.step}/${s.secondsSinceStartTime}/${s.lastCommitRound}`;
    }
    case "newValidBlock": {
      const b = m.newValidBlock;
      const header = b.blockPartSetHeader;
      const hash = `${header.total}:${latin1(header.hash)}`;
      const parts = b.blockParts === undefined ? "u" : `${b.blockParts.bits}:${b.blockParts.elems.join(",")}`;
      return `b${b.height}/${b.round}/${hash}/${parts}/${b.isCommit}`;
    }
    default:
      return undefined;
  }
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
    const content = announcementKey(message);
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
