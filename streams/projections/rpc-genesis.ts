// genesis and genesis_chunked. The document is cut into 16 MiB chunks (v0.34's size): from the
// genesis file when its path is known (read chunk by chunk, never whole), otherwise from the
// document's compact JSON in the node's result form. `genesis` refuses a document of more than one chunk, pointing to
// genesis_chunked, as v0.34 does.
import { open, stat } from "node:fs/promises";
import { handlerError } from "../../src/rpc/errors.js";
import type { GenesisChunkResult, GenesisResult } from "../../src/rpc/json/index.js";
import { type JsonForm, jsonText, routeResultJson } from "../../src/rpc/json/index.js";
import type { NodeHandle } from "../node-handle.js";

export const GENESIS_CHUNK_BYTES = 16 * 1024 * 1024;

export interface GenesisSource {
  size(): Promise<number>;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export function genesisFileSource(path: string): GenesisSource {
  return {
    size: async () => (await stat(path)).size,
    read: async (offset, length) => {
      const file = await open(path, "r");
      try {
        const buffer = new Uint8Array(length);
        let done = 0;
        while (done < length) {
          const { bytesRead } = await file.read(buffer, done, length - done, offset + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return buffer.subarray(0, done);
      } finally {
        await file.close();
      }
    },
  };
}

/** The document as the genesis route writes it, compact (v0.34 chunks its own serialisation). */
export function genesisDocSource(node: NodeHandle, form: JsonForm): GenesisSource {
  let bytes: Uint8Array | undefined;
  const all = () => {
    if (bytes === undefined) {
      const result = routeResultJson("genesis", { genesis: node.genesis }, form) as {
        genesis: Parameters<typeof jsonText>[0];
      };
      bytes = new TextEncoder().encode(jsonText(result.genesis));
    }
    return bytes;
  };
  return {
    size: async () => all().length,
    read: async (offset, length) => all().subarray(offset, offset + length),
  };
}

export async function genesisOf(node: NodeHandle, source: GenesisSource): Promise<GenesisResult> {
  if ((await source.size()) > GENESIS_CHUNK_BYTES) {
    throw handlerError("genesis response is large, please use the genesis_chunked API instead");
  }
  return { genesis: node.genesis };
}

export async function genesisChunk(source: GenesisSource, chunk: number): Promise<GenesisChunkResult> {
  const size = await source.size();
  const total = Math.max(1, Math.ceil(size / GENESIS_CHUNK_BYTES));
  if (!Number.isInteger(chunk) || chunk < 0 || chunk >= total) {
    // v0.34 prints the last valid id here, not the count.
    throw handlerError(`there are ${total - 1} chunks, ID is invalid`);
  }
  const data = await source.read(chunk * GENESIS_CHUNK_BYTES, GENESIS_CHUNK_BYTES);
  return { chunk, total, data };
}
