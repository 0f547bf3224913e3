// A committed block's tx hashes are computed once: the data hash remembers them per txs array
// (src/wire/hashes.ts) and the height's index input carries them (height-index-input.ts), so the
// indexer does not hash every tx again. A block whose data hash was never computed here (start-up
// repair) leaves them to the indexer.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { responseDeliverTx } from "../../src/abci/apps/responses.js";
import { sha256 } from "../../src/crypto/hash.js";
import { merkleRoot } from "../../src/crypto/merkle.js";
import { heightIndexInputFrom } from "../../src/store/indexer/height-index-input.js";
import { dataHash, rememberedTxHashes } from "../../src/wire/hashes.js";
import { makeBlock, makeTxs } from "../fixtures/store/chain-fixture.js";

const responsesFor = (count: number) => ({
  deliverTxs: Array.from({ length: count }, () => responseDeliverTx()),
  beginBlock: { events: [] },
  endBlock: { validatorUpdates: [], consensusParamUpdates: undefined, events: [] },
});

describe("a block's tx hashes, shared by its data hash and its index", () => {
  it("dataHash is the merkle root of the txs' sha256 and remembers them for that array", () => {
    const txs = makeTxs(3n, 9);
    assert.equal(rememberedTxHashes(txs), undefined);
    assert.deepEqual(dataHash(txs), merkleRoot(txs.map(sha256)));
    assert.deepEqual(rememberedTxHashes(txs), txs.map(sha256));
    // Another array with the same txs is its own entry.
    assert.equal(rememberedTxHashes([...txs]), undefined);
  });

  it("dataHash asked again for the same array answers the remembered root, as a copy of its own", () => {
    const txs = makeTxs(4n, 5);
    const root = dataHash(txs);
    // The remembered tx hashes never change; changing one here shows that the second call
    // (validating our own proposal) builds no second tree from them.
    (rememberedTxHashes(txs) as Uint8Array[])[0] = new Uint8Array(32);
    const again = dataHash(txs);
    assert.deepEqual(again, root, "the root remembered for this array");
    assert.notEqual(again, root, "each caller gets its own copy");
    again.fill(0);
    assert.deepEqual(dataHash(txs), root, "a caller changing its copy changes nothing remembered");
    assert.deepEqual(dataHash([...txs]), root, "another array is hashed for itself");
  });

  it("the index input of a block carries the hashes its data hash computed", () => {
    const txs = makeTxs(4n, 5);
    const block = makeBlock(4n, txs);
    dataHash(block.data.txs);
    const input = heightIndexInputFrom(block, responsesFor(txs.length));
    const remembered = rememberedTxHashes(block.data.txs)!;
    input.txs.forEach((indexed, i) => {
      assert.equal(indexed.hash, remembered[i], `tx ${i} reuses the remembered hash`);
      assert.deepEqual(indexed.hash, sha256(txs[i]!));
    });
  });

  it("a block never hashed here leaves the hashes to the indexer", () => {
    const txs = makeTxs(5n, 3);
    const block = { ...makeBlock(5n, txs), data: { txs: [...txs] } };
    const input = heightIndexInputFrom(block, responsesFor(txs.length));
    for (const indexed of input.txs) assert.equal(indexed.hash, undefined);
  });
});
