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

export class WireCrossing {
  private readonly crossed = new WeakMap<object, DecodedConsensusWire>();
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
    this.encoded++;
    const decoded = deepFreeze(decodeConsensusWire(encodeConsensusMessage(message), channelOf(message)));
    this.crossed.set(key, decoded);
    // A receiver relaying what it decoded sends these very objects: their bytes are the same.
    if (decoded.kind === "ok") this.crossed.set(keyOf(decoded.message), decoded);
    return decoded;
  }
}
