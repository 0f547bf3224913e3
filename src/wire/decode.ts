// Decoding bytes from outside (peers, the app, the RPC, disk) with a size bound, so a malformed
// or oversized message becomes a WireError naming what was being decoded, never a bare RangeError
// from the protobuf reader.
import { WireError } from "./errors.js";

export interface MessageCodec<T> {
  decode(input: Uint8Array): T;
}

/**
 * `codec.decode(bytes)`, refusing more than `maxBytes` and turning reader failures (truncated
 * input, bad wire types, overlong varints) into WIRE_DECODE_FAILED. `what` names the message in
 * errors, e.g. "consensus message from peer 1a2b…".
 */
export function decodeMessage<T>(
  codec: MessageCodec<T>,
  bytes: Uint8Array,
  maxBytes: number,
  what: string,
): T {
  if (bytes.length > maxBytes)
    throw new WireError(
      "WIRE_MESSAGE_TOO_LARGE",
      `${what} is ${bytes.length} bytes, over the limit of ${maxBytes}`,
    );
  try {
    return codec.decode(bytes);
  } catch (error) {
    throw new WireError("WIRE_DECODE_FAILED", `${what} does not decode: ${(error as Error).message}`);
  }
}
