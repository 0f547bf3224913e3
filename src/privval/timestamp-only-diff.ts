// Whether two canonical sign bytes differ only in their timestamp. A validator that restarts may
// be asked to sign the same vote or proposal with a new time; as CometBFT does, the signer then
// hands back the stored signature and the stored timestamp instead of signing a second message.

import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { CanonicalProposal, CanonicalVote } from "../wire/generated/tendermint/types/canonical.js";
import { decodeUvarint } from "../wire/varint.js";

const ZERO_TIME: Timestamp = { seconds: 0n, nanos: 0 };

type Canonical = typeof CanonicalVote | typeof CanonicalProposal;

/**
 * The stored timestamp when `stored` and `requested` (length-prefixed canonical votes, or
 * proposals) are equal once both timestamps are cleared; undefined when they differ otherwise
 * or either does not decode.
 */
export function storedTimestampIfOnlyTimeDiffers(
  kind: "vote" | "proposal",
  stored: Uint8Array,
  requested: Uint8Array,
): Timestamp | undefined {
  const codec: Canonical = kind === "vote" ? CanonicalVote : CanonicalProposal;
  const a = decodeCanonical(codec, stored);
  const b = decodeCanonical(codec, requested);
  if (a === undefined || b === undefined) return undefined;
  const storedTime = a.timestamp ?? ZERO_TIME;
  const withoutTime = (m: CanonicalVote | CanonicalProposal) =>
    Buffer.from(encodeCanonical(codec, { ...m, timestamp: ZERO_TIME }));
  return withoutTime(a).equals(withoutTime(b)) ? storedTime : undefined;
}

function decodeCanonical(codec: Canonical, bytes: Uint8Array): CanonicalVote | CanonicalProposal | undefined {
  try {
    const prefix = decodeUvarint(bytes, 0);
    if (prefix === undefined || prefix.value !== BigInt(bytes.length - prefix.length)) return undefined;
    return codec.decode(bytes.subarray(prefix.length));
  } catch {
    return undefined;
  }
}

function encodeCanonical(codec: Canonical, message: CanonicalVote | CanonicalProposal): Uint8Array {
  return codec === CanonicalVote
    ? CanonicalVote.encode(message as CanonicalVote).finish()
    : CanonicalProposal.encode(message as CanonicalProposal).finish();
}
