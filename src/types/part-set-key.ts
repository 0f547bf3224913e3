// The key of a part set in the process-wide memos of what its bytes give (part-set-block.ts,
// part-set-data-hash.ts): its header's merkle root over the parts' bytes and its part count. A part
// is accepted only once its proof leads to that root, so the key fixes the bytes.
import type { PartSetHeader } from "../wire/generated/tendermint/types/types.js";

export const partSetKey = (header: PartSetHeader): string =>
  `${Buffer.from(header.hash).toString("latin1")}/${header.total}`;
