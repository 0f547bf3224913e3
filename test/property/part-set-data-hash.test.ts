// A block's data hash read from its parts as they arrive (part-set-data-hash.ts) and built leaf by
// leaf (merkle-incremental.ts) is the data hash of the decoded block's txs, byte for byte, however
// the bytes are cut into parts and in whatever order the parts arrive.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { leafHash, merkleRoot, merkleRootOfLeafHashes } from "../../src/crypto/merkle.js";
import type { PartSetState } from "../../src/types/part-set.js";
import { readDataOfParts, takeDataHashOfParts } from "../../src/types/part-set-data-hash.js";
import { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { dataHash, txHash } from "../../src/wire/hashes.js";
import { IncrementalMerkleRoot } from "../../src/wire/merkle-incremental.js";
import * as arb from "./codec-arbitraries.js";

let sets = 0;
/** A part-set state over `bytes` cut at `cuts`, with only the parts in `present` in. */
function partsOf(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    chunks.push(bytes.slice(from, c));
    from = c;
  }
  return chunks;
}

const txs = fc.array(
  fc.oneof(
    { weight: 8, arbitrary: fc.uint8Array({ minLength: 0, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 100, maxLength: 3000 }) },
  ),
  { maxLength: 120 },
);

describe("a data hash read from a block's parts", () => {
  it("a root built leaf by leaf equals the tree over all the leaves", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), (n) => {
        const leaves = Array.from({ length: n }, (_, i) => leafHash(Uint8Array.of(i & 0xff, i >> 8)));
        const tree = new IncrementalMerkleRoot();
        for (const leaf of leaves) tree.push(leaf);
        assert.equal(tree.count, n);
        assert.deepEqual(tree.root(), merkleRootOfLeafHashes(leaves));
      }),
      { numRuns: 120 },
    );
  });

  it("equals the decoded txs' data hash for any cut into parts and any arrival order", () => {
    fc.assert(
      fc.property(
        arb.block,
        txs,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.infiniteStream(fc.nat()),
        (base, list, cutSeeds, order) => {
          const bytes = Block.encode({ ...base, data: { txs: list } }).finish();
          const chunks = partsOf(
            bytes,
            cutSeeds.map((s) => s % (bytes.length + 1)),
          );
          const total = chunks.length;
          const hash = new Uint8Array(32);
          new DataView(hash.buffer).setUint32(0, ++sets);
          const parts: PartSetState["parts"][number][] = new Array(total).fill(undefined);
          const set = (): PartSetState => ({
            header: { total, hash },
            parts,
            count: parts.filter((p) => p !== undefined).length,
            byteSize: 0,
            maxBytes: undefined,
          });
          const waiting = chunks.map((_, i) => i);
          const it = order[Symbol.iterator]();
          while (waiting.length > 0) {
            const index = waiting.splice(it.next().value % waiting.length, 1)[0]!;
            parts[index] = {
              index,
              bytes: chunks[index]!,
              proof: { total: 0n, index: 0n, leafHash: new Uint8Array(), aunts: [] },
            };
            readDataOfParts(set());
          }
          const assembled = new Uint8Array(bytes.length);
          assembled.set(bytes);
          const block = Block.decode(assembled);
          assert.equal(takeDataHashOfParts(set(), assembled, block), true, "read from the parts");
          assert.deepEqual(dataHash(block.data.txs), merkleRoot(list.map(txHash)));
        },
      ),
      { numRuns: 150 },
    );
  });
});
