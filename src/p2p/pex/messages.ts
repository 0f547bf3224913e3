// Channel 0x00's messages (tendermint.p2p.Message: pex_request = 1, pex_addrs = 2). Decoding
// never throws: garbage is reported as `invalid` with the reason, and the peer is dropped.
import { Message } from "../../wire/generated/tendermint/p2p/pex.js";

export const PEX_CHANNEL = 0x00;
/** v0.34's receive capacity of channel 0x00 (256 bytes × 250 addresses) */
export const PEX_MAX_MESSAGE_BYTES = 64_000;

/** An address as it arrived: not checked yet (the reducer judges it). */
export interface WireAddress {
  id: string;
  ip: string;
  port: number;
}

export type PexMessage =
  | { kind: "request" }
  | { kind: "addrs"; addrs: WireAddress[] }
  | { kind: "invalid"; reason: string };

export function decodePexMessage(bytes: Uint8Array): PexMessage {
  if (bytes.length > PEX_MAX_MESSAGE_BYTES)
    return { kind: "invalid", reason: `message of ${bytes.length} bytes exceeds ${PEX_MAX_MESSAGE_BYTES}` };
  let message: Message;
  try {
    message = Message.decode(bytes);
  } catch (error) {
    return { kind: "invalid", reason: `undecodable pex message: ${(error as Error).message}` };
  }
  const sum = message.sum;
  if (sum === undefined) return { kind: "invalid", reason: "pex message with no known variant" };
  if (sum.$case === "pexRequest") return { kind: "request" };
  return { kind: "addrs", addrs: sum.pexAddrs.addrs.map((a) => ({ id: a.id, ip: a.ip, port: a.port })) };
}

export function encodePexRequest(): Uint8Array {
  return Message.encode({ sum: { $case: "pexRequest", pexRequest: {} } }).finish();
}

export function encodePexAddrs(addrs: readonly WireAddress[]): Uint8Array {
  return Message.encode({
    sum: { $case: "pexAddrs", pexAddrs: { addrs: addrs.map((a) => ({ ...a })) } },
  }).finish();
}
