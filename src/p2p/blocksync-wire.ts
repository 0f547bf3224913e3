// Channel 0x40's messages (tendermint.blockchain.Message: block_request = 1, no_block_response =
// 2, block_response = 3, status_request = 4, status_response = 5), with v0.34's ValidateBasic:
// negative heights, a base above the height and a block that does not pass Block.ValidateBasic
// are protocol breaches. Decoding never throws: garbage comes back as `invalid` with the reason,
// and the peer is dropped.
import { validateBlock } from "../types/validate-block.js";
import { Message } from "../wire/generated/tendermint/blockchain/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import { CHANNEL_BLOCKSYNC } from "./channels.js";

export const BLOCKSYNC_CHANNEL = CHANNEL_BLOCKSYNC;
/**
 * v0.34's receive capacity of channel 0x40: the largest block (max_bytes 100 MiB) plus the
 * BlockResponse envelope (MaxBlockSizeBytes + bcBlockResponseMessagePrefixSize 4 +
 * bcBlockResponseMessageFieldKeySize 1).
 */
export const BLOCKSYNC_MAX_MESSAGE_BYTES = 104_857_600 + 4 + 1;

export type BlocksyncMessage =
  | { kind: "blockRequest"; height: bigint }
  | { kind: "noBlockResponse"; height: bigint }
  | { kind: "blockResponse"; block: Block }
  | { kind: "statusRequest" }
  | { kind: "statusResponse"; base: bigint; height: bigint }
  | { kind: "invalid"; reason: string };

const invalid = (reason: string): BlocksyncMessage => ({ kind: "invalid", reason });

export function decodeBlocksyncMessage(bytes: Uint8Array): BlocksyncMessage {
  if (bytes.length > BLOCKSYNC_MAX_MESSAGE_BYTES)
    return invalid(`message of ${bytes.length} bytes exceeds ${BLOCKSYNC_MAX_MESSAGE_BYTES}`);
  let message: Message;
  try {
    message = Message.decode(bytes);
  } catch (error) {
    return invalid(`undecodable blocksync message: ${(error as Error).message}`);
  }
  const sum = message.sum;
  if (sum === undefined) return invalid("blocksync message with no known variant");
  switch (sum.$case) {
    case "blockRequest":
      if (sum.blockRequest.height < 0n)
        return invalid(`block request for negative height ${sum.blockRequest.height}`);
      return { kind: "blockRequest", height: sum.blockRequest.height };
    case "noBlockResponse":
      if (sum.noBlockResponse.height < 0n)
        return invalid(`no-block response for negative height ${sum.noBlockResponse.height}`);
      return { kind: "noBlockResponse", height: sum.noBlockResponse.height };
    case "blockResponse": {
      const block = sum.blockResponse.block;
      if (block === undefined) return invalid("block response without a block");
      try {
        validateBlock(block);
      } catch (error) {
        return invalid(`block response with an invalid block: ${(error as Error).message}`);
      }
      return { kind: "blockResponse", block };
    }
    case "statusRequest":
      return { kind: "statusRequest" };
    case "statusResponse": {
      const { base, height } = sum.statusResponse;
      if (base < 0n || height < 0n || base > height)
        return invalid(`status response with impossible heights: base ${base}, height ${height}`);
      return { kind: "statusResponse", base, height };
    }
  }
}

export function encodeBlockRequest(height: bigint): Uint8Array {
  return Message.encode({ sum: { $case: "blockRequest", blockRequest: { height } } }).finish();
}

export function encodeNoBlockResponse(height: bigint): Uint8Array {
  return Message.encode({ sum: { $case: "noBlockResponse", noBlockResponse: { height } } }).finish();
}

export function encodeBlockResponse(block: Block): Uint8Array {
  return Message.encode({ sum: { $case: "blockResponse", blockResponse: { block } } }).finish();
}

/**
 * A BlockResponse around a block already encoded (the block store keeps blocks as bytes): field 3
 * holding a Block message in field 1, without decoding and re-encoding the block.
 */
export function encodeBlockResponseFromBytes(blockBytes: Uint8Array): Uint8Array {
  const inner = lengthDelimited(0x0a, blockBytes);
  return lengthDelimited(0x1a, inner);
}

export function encodeStatusRequest(): Uint8Array {
  return Message.encode({ sum: { $case: "statusRequest", statusRequest: {} } }).finish();
}

export function encodeStatusResponse(base: bigint, height: bigint): Uint8Array {
  return Message.encode({ sum: { $case: "statusResponse", statusResponse: { height, base } } }).finish();
}

function lengthDelimited(tag: number, payload: Uint8Array): Uint8Array {
  let n = payload.length;
  const varint: number[] = [];
  while (n >= 0x80) {
    varint.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  varint.push(n);
  const out = new Uint8Array(1 + varint.length + payload.length);
  out[0] = tag;
  out.set(varint, 1);
  out.set(payload, 1 + varint.length);
  return out;
}
