// The admitted digests' index (src/wire/admitted-tx-digests.ts) as a table of integers: against a
// model Map over many remembers and evictions in a small, crowded table (every answer the same,
// also after entries in the middle of a run leave), a bounded run under keys crafted to share a
// home slot, and the key a caller hands in (a peer's tx keyed once) filed and found like its own.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import {
  ADMITTED_DIGESTS_MAX_PROBES,
  AdmittedTxDigests,
  bytesKey,
  type DigestsOfTx,
} from "../../src/wire/admitted-tx-digests.js";
import { TxSha256 } from "../../src/wire/hashes.js";

const copyOf = (tx: Uint8Array) => new Uint8Array(tx);
const digestsOf = (tx: Uint8Array): DigestsOfTx => ({ tx });

describe("AdmittedTxDigests's table", () => {
  it("answers as a Map of the latest entry per key, the oldest evicted first, in a crowded table", () => {
    // 12 entries in 32 slots, over few distinct txs: long runs, keys remembered again while an
    // older entry of theirs is still in the ring, evictions from the middle of runs.
    const maxEntries = 12;
    const memo = new AdmittedTxDigests(maxEntries);
    const pool = Array.from({ length: 40 }, () => new Uint8Array(randomBytes(3 + (randomBytes(1)[0]! % 5))));
    const ring: { key: number; d: DigestsOfTx }[] = [];
    const model = new Map<number, DigestsOfTx>();
    for (let step = 0; step < 20_000; step++) {
      const tx = pool[randomBytes(1)[0]! % pool.length]!;
      if (ring.length === maxEntries) {
        const old = ring.shift()!;
        if (model.get(old.key) === old.d) model.delete(old.key);
      }
      const d = digestsOf(copyOf(tx));
      memo.remember(d);
      ring.push({ key: bytesKey(tx), d });
      model.set(bytesKey(tx), d);
      for (const asked of pool) {
        const expected = model.get(bytesKey(asked));
        const want = expected !== undefined && Buffer.from(expected.tx).equals(asked) ? expected : undefined;
        assert.equal(memo.of(copyOf(asked)), want, `step ${step}: a different answer than the model's`);
      }
      assert.equal(memo.size, model.size, `step ${step}: size`);
    }
  });

  it("keeps what fits in a key's run and misses the rest, whatever keys a peer crafts", () => {
    // Keys chosen to share one home slot (the same key's 16 low home bits in a 2^16-slot table)
    // cannot push the index beyond MAX_PROBES probes: the overflow is simply not kept.
    const memo = new AdmittedTxDigests(32_768, 1 << 30);
    const home = (k: number) => {
      let h = k ^ (k >>> 16);
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      return (h ^ (h >>> 16)) & 0xffff;
    };
    const crafted: Uint8Array[] = [];
    for (let i = 0; crafted.length < ADMITTED_DIGESTS_MAX_PROBES + 8; i++) {
      const tx = new TextEncoder().encode(`grind=${i}`);
      if (home(bytesKey(tx)) === 7) crafted.push(tx);
    }
    const kept = crafted.map((tx) => {
      const d = digestsOf(tx);
      memo.remember(d);
      return d;
    });
    for (let i = 0; i < crafted.length; i++)
      assert.equal(
        memo.of(copyOf(crafted[i]!)),
        i < ADMITTED_DIGESTS_MAX_PROBES ? kept[i] : undefined,
        `tx ${i}`,
      );
    assert.equal(memo.size, ADMITTED_DIGESTS_MAX_PROBES);
  });

  it("files an entry under the key handed in, and a wrong key only misses", () => {
    const memo = new AdmittedTxDigests<TxSha256>(8);
    const tx = new Uint8Array(randomBytes(40));
    const keyed = TxSha256.of(tx, bytesKey(tx));
    assert.equal(keyed.bytesKey, bytesKey(tx));
    memo.remember(keyed, keyed.bytesKey);
    assert.equal(memo.of(copyOf(tx)), keyed);
    assert.equal(memo.of(copyOf(tx), bytesKey(tx)), keyed);
    const other = new Uint8Array(randomBytes(40));
    const misfiled = TxSha256.of(other);
    memo.remember(misfiled, bytesKey(tx) ^ 1);
    assert.equal(memo.of(copyOf(other)), undefined, "filed under a wrong key, yet found by its bytes' key");
    assert.equal(
      memo.of(copyOf(other), bytesKey(tx) ^ 1),
      misfiled,
      "the key handed in was not the one used",
    );
    assert.equal(memo.of(copyOf(tx), bytesKey(tx) ^ 1), undefined, "other bytes answered for a key");
  });
});
