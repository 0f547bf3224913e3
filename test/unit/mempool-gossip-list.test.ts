// The gossip's persistent list of pending txs against a plain model (an array of txs with their
// senders): random admissions, removals, re-admissions and noted senders, every version kept and
// re-read after newer edits, branches and two drafts of one version, and the bound on what a log
// holds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { GossipList } from "../../src/mempool-gossip/gossip-list.js";

function randomFrom(seed: number) {
  return (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
}

interface ModelTx {
  seq: number;
  hash: string;
  senders: string[];
}

const message = (n: number) => Uint8Array.of(0x0a, 3, 0x0a, 1, n & 0xff);
const PEERS = ["A", "B", "C", "D"];

/** What a version answers, in the model's terms. */
function read(list: GossipList): ModelTx[] {
  return [...list.values()].map((t) => ({ seq: t.seq, hash: t.hash, senders: [...t.senders] }));
}

/** The same as read(), through the positions the peers' walks use. */
function walk(list: GossipList, peer: string): number[] {
  const seqs: number[] = [];
  for (let at = list.positionFrom(0); at < list.length; at++) {
    if (list.liveAt(at) && !list.sentByAt(at, peer)) seqs.push(list.seqAt(at));
  }
  return seqs;
}

test("a GossipList reads as its model after every edit, and every older version as it was", () => {
  const random = randomFrom(5);
  for (const hashes of [1, 4, 30, 300]) {
    let list = GossipList.EMPTY;
    let model: ModelTx[] = [];
    let nextSeq = 0;
    const versions: { list: GossipList; model: ModelTx[] }[] = [];
    for (let step = 0; step < 3000; step++) {
      if (random(4) === 0) {
        // one admission without a draft (with)
        const hash = `H${random(hashes)}`;
        if (!model.some((t) => t.hash === hash)) {
          list = list.with(nextSeq, hash, message(nextSeq), 1, BigInt(step), []);
          model.push({ seq: nextSeq++, hash, senders: [] });
        }
      }
      const draft = list.edit();
      const edits = 1 + random(4);
      for (let i = 0; i < edits; i++) {
        const hash = `H${random(hashes)}`;
        const op = random(3);
        const at = model.findIndex((t) => t.hash === hash);
        if (op === 0) {
          if (draft.has(hash) !== at >= 0) assert.fail(`has ${hash} at step ${step}`);
          if (at >= 0) continue;
          const senders = random(2) === 0 ? [] : [PEERS[random(4)]!];
          draft.add(nextSeq, hash, message(nextSeq), 1, BigInt(step), senders);
          model.push({ seq: nextSeq++, hash, senders });
        } else if (op === 1) {
          assert.equal(draft.remove(hash), at >= 0, `remove ${hash} at step ${step}`);
          if (at >= 0) model = model.filter((t) => t.hash !== hash);
        } else {
          const peer = PEERS[random(4)]!;
          const noted = at >= 0 && !model[at]!.senders.includes(peer);
          assert.equal(draft.noteSender(hash, peer), noted, `note ${hash} ${peer} at step ${step}`);
          if (noted) model = model.map((t, j) => (j === at ? { ...t, senders: [...t.senders, peer] } : t));
        }
      }
      list = draft.done();
      assert.deepEqual(read(list), model, `hashes ${hashes}, step ${step}`);
      assert.equal(list.size, model.length);
      for (const t of model) assert.equal(list.seqOf(t.hash), t.seq);
      const peer = PEERS[step % 4]!;
      assert.deepEqual(
        walk(list, peer),
        model.filter((t) => !t.senders.includes(peer)).map((t) => t.seq),
      );
      if (step % 37 === 0) versions.push({ list, model: [...model] });
    }
    for (const { list: old, model: then } of versions) {
      assert.deepEqual(read(old), then, "an older version");
      for (const peer of PEERS)
        assert.deepEqual(
          walk(old, peer),
          then.filter((t) => !t.senders.includes(peer)).map((t) => t.seq),
          "an older version's walk",
        );
    }
  }
});

test("the log holds O(pool) entries and notes however many txs passed through it", () => {
  let list = GossipList.EMPTY;
  for (let seq = 0; seq < 20_000; seq++) {
    const d = list.edit();
    d.add(seq, `H${seq}`, message(seq), 1, 0n, []);
    for (const peer of PEERS) d.noteSender(`H${seq}`, peer);
    if (seq >= 100) d.remove(`H${seq - 100}`);
    list = d.done();
    const { entries, notes } = list.retained;
    assert.ok(entries <= 2 * list.size + 1024 + 1, `entries ${entries} for ${list.size} txs`);
    assert.ok(notes <= 2 * list.size + 1024 + PEERS.length, `notes ${notes} for ${list.size} txs`);
  }
  assert.equal(list.size, 100);
  assert.deepEqual(list.first()?.senders, PEERS);
});

test("two branches of one version and two drafts alive at once each read as their own list", () => {
  const d = GossipList.EMPTY.edit();
  for (const [seq, hash] of ["a", "b", "c"].entries()) d.add(seq, hash, message(seq), 1, 0n, []);
  const base = d.done();
  const left = base.edit();
  const right = base.edit();
  left.noteSender("b", "A");
  left.remove("a");
  right.add(3, "d", message(3), 1, 0n, ["B"]);
  right.noteSender("a", "C");
  left.add(3, "e", message(3), 1, 0n, []);
  const [l, r] = [left.done(), right.done()];
  assert.deepEqual(read(base), [
    { seq: 0, hash: "a", senders: [] },
    { seq: 1, hash: "b", senders: [] },
    { seq: 2, hash: "c", senders: [] },
  ]);
  assert.deepEqual(read(l), [
    { seq: 1, hash: "b", senders: ["A"] },
    { seq: 2, hash: "c", senders: [] },
    { seq: 3, hash: "e", senders: [] },
  ]);
  assert.deepEqual(read(r), [
    { seq: 0, hash: "a", senders: ["C"] },
    { seq: 1, hash: "b", senders: [] },
    { seq: 2, hash: "c", senders: [] },
    { seq: 3, hash: "d", senders: ["B"] },
  ]);
  // One admission to the older version after both, without a draft: still its own list.
  assert.deepEqual(
    read(base.with(3, "f", message(3), 1, 0n, [])).map((t) => t.hash),
    ["a", "b", "c", "f"],
  );
  assert.deepEqual(
    read(r).map((t) => t.hash),
    ["a", "b", "c", "d"],
  );
  // An edit of the older version after both: still its own list.
  const again = base.edit();
  again.remove("c");
  assert.deepEqual(
    read(again.done()).map((t) => t.hash),
    ["a", "b"],
  );
  assert.deepEqual(
    read(l).map((t) => t.hash),
    ["b", "c", "e"],
  );
});

test("a tx that left and came back is found at its new admission number, and old versions keep the old one", () => {
  const d = GossipList.EMPTY.edit();
  d.add(0, "x", message(0), 1, 0n, []);
  d.add(1, "y", message(1), 1, 0n, []);
  const first = d.done();
  const gone = first.edit();
  gone.remove("x");
  const without = gone.done();
  const back = without.edit();
  back.add(2, "x", message(2), 1, 0n, []);
  const readded = back.done();
  assert.equal(first.seqOf("x"), 0);
  assert.equal(without.seqOf("x"), undefined);
  assert.equal(readded.seqOf("x"), 2);
  assert.equal(readded.positionFrom(1), 1);
  assert.equal(readded.get(2)?.hash, "x");
  assert.equal(readded.get(0), undefined);
  assert.equal(first.get(0)?.hash, "x");
});
