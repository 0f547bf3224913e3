// Frames of the privval socket: each Message preceded by its length as an unsigned varint
// (protoio's delimited form, as v0.34 reads and writes it), at most 10 KiB per message. The
// decoder takes bytes as they arrive and hands back whole messages; a frame that is too long or
// does not decode is an error naming the offset, after which the connection is dropped.

import { Message } from "../../wire/generated/tendermint/privval/types.js";
import { decodeUvarint, lengthPrefixed } from "../../wire/varint.js";
import type { ByteLink } from "./byte-link.js";
import { RemoteSignerError } from "./errors.js";
import { MAX_PRIVVAL_MESSAGE_BYTES } from "./messages.js";

export function encodeFrame(message: Message): Uint8Array {
  return lengthPrefixed(Message.encode(message).finish());
}

export class FrameDecoder {
  private buffer: Uint8Array = new Uint8Array(0);
  private consumed = 0;

  constructor(
    /** Where the bytes come from, for error messages ("the node at unix:///…"). */
    private readonly source: string,
    private readonly maxBytes = MAX_PRIVVAL_MESSAGE_BYTES,
  ) {}

  /** Appends `chunk` and returns the messages now complete (throws on a bad frame). */
  push(chunk: Uint8Array): Message[] {
    this.buffer = this.buffer.length === 0 ? chunk : concat(this.buffer, chunk);
    const out: Message[] = [];
    let offset = 0;
    for (;;) {
      let prefix: ReturnType<typeof decodeUvarint>;
      try {
        prefix = decodeUvarint(this.buffer, offset);
      } catch (error) {
        throw this.error(`bad length prefix at byte ${this.consumed + offset}: ${(error as Error).message}`);
      }
      if (prefix === undefined) break;
      if (prefix.value > BigInt(this.maxBytes)) {
        throw this.error(
          `message at byte ${this.consumed + offset} is ${prefix.value} bytes long, over the limit of ${this.maxBytes}`,
        );
      }
      const length = Number(prefix.value);
      const start = offset + prefix.length;
      if (this.buffer.length < start + length) break;
      try {
        out.push(Message.decode(this.buffer.subarray(start, start + length)));
      } catch (error) {
        throw this.error(
          `message at byte ${this.consumed + offset} does not decode as tendermint.privval.Message: ${(error as Error).message}`,
        );
      }
      offset = start + length;
    }
    this.consumed += offset;
    this.buffer = offset === this.buffer.length ? new Uint8Array(0) : this.buffer.slice(offset);
    return out;
  }

  private error(what: string): RemoteSignerError {
    return new RemoteSignerError("PRIVVAL_REMOTE_BAD_FRAME", `bad frame from ${this.source}: ${what}`);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** What a connection's framed messages turn into: the owner feeds each to its state machine. */
export interface LinkEvents {
  received(message: Message): void;
  /** the peer's bytes are not a frame we accept; the reason names the peer */
  badFrame(reason: string): void;
  closed(reason: string): void;
}

/**
 * Decodes a link's bytes into whole messages for `events`, one decoder per connection: both the
 * node's listener and the signer's dialler read their links this way.
 */
export function readFramedLink(link: ByteLink, peerName: string, events: LinkEvents): void {
  const decoder = new FrameDecoder(`${peerName} (${link.remote})`);
  link.onData((chunk) => {
    let messages: Message[];
    try {
      messages = decoder.push(chunk);
    } catch (error) {
      events.badFrame((error as Error).message);
      return;
    }
    for (const message of messages) events.received(message);
  });
  link.onClose((reason) => events.closed(reason));
}
