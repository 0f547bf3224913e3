// Encoding and decoding of the protobuf records the stores keep. Stored bytes that do not
// decode are corruption, reported with the store and key they came from.
import type { Writer } from "protobufjs/minimal.js";
import { StoreError } from "./errors.js";

export interface MessageCodec<T> {
  encode(message: T, writer?: Writer): Writer;
  decode(input: Uint8Array, length?: number): T;
}

export function encodeMessage<T>(codec: MessageCodec<T>, message: T): Uint8Array {
  return codec.encode(message).finish();
}

export function decodeStored<T>(codec: MessageCodec<T>, bytes: Uint8Array, where: string): T {
  try {
    return codec.decode(bytes);
  } catch (error) {
    throw new StoreError("STORE_CORRUPT", `undecodable record at ${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
