// The block pool checks held blocks' certificates ahead of their turn (CheckCommit) when the
// wiring gives it the validator sets: a block applies only once checked with the set known to
// sign its height; one checked with a set that turned out stale is checked again; a failed check
// drops the blamed peer and asks for the height again, but only once its set is the one known to
// sign the height; the answer to a replaced block's check is ignored.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type BlockPoolEffect,
  type BlockPoolInput,
  type BlockPoolParams,
  type BlockPoolState,
  blockPoolReducer,
  type CheckCommit,
  DEFAULT_BLOCK_POOL_PARAMS,
  initialBlockPoolState,
  type KnownValidators,
  type VerifiedBlock,
} from "../../src/blocksync/index.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { makeBlock } from "../fixtures/store/chain-fixture.js";

// The pool compares sets by key only; what a set holds matters to the wiring's check.
const setA: KnownValidators = { key: "aaaa", set: { validators: [], totalVotingPower: 0n } as never };
const setB: KnownValidators = { key: "bbbb", set: { validators: [], totalVotingPower: 0n } as never };
const verified = (h: bigint): VerifiedBlock => ({
  blockId: {
    hash: new Uint8Array(32).fill(Number(h)),
    partSetHeader: { total: 1, hash: new Uint8Array(32) },
  },
  parts: [],
});

function pool(params: Partial<BlockPoolParams> = {}, sets = { current: setA, next: setA }) {
  const holder = {
    state: initialBlockPoolState(1n, 0, { ...DEFAULT_BLOCK_POOL_PARAMS, ...params }, sets) as BlockPoolState,
    feed(input: BlockPoolInput): BlockPoolEffect[] {
      const r = blockPoolReducer(holder.state, input);
      holder.state = r.state;
      return [...r.effects];
    },
  };
  return holder;
}
const status = (peerId: string, height: bigint): BlockPoolInput => ({
  type: "PeerStatusReceived",
  time: 0,
  peerId,
  base: 1n,
  height,
});
const received = (peerId: string, b: Block): BlockPoolInput => ({
  type: "BlockReceived",
  time: 0,
  peerId,
  block: b,
  size: 10_000,
});
const checks = (effects: BlockPoolEffect[]) =>
  effects.filter((e): e is CheckCommit => e.type === "CheckCommit");
const passed = (c: CheckCommit): BlockPoolInput => ({
  type: "CommitChecked",
  time: 0,
  height: c.height,
  checkId: c.checkId,
  block: verified(c.height),
});
const applied = (height: bigint, current: KnownValidators, next: KnownValidators): BlockPoolInput => ({
  type: "BlockApplied",
  time: 0,
  height,
  validators: current,
  nextValidators: next,
});

test("held blocks are checked ahead while an earlier one applies, and apply with the check's result", () => {
  const p = pool();
  p.feed(status("a", 5n));
  for (const h of [1n, 2n, 3n]) p.feed(received("a", makeBlock(h, [])));
  const out = p.feed(received("a", makeBlock(4n, [])));
  // Each block's check starts as soon as its successor is here (block 3's with block 4), and
  // nothing applies unchecked.
  assert.deepEqual(
    checks(out).map((c) => c.height),
    [3n],
  );
  assert.equal(p.state.applying, undefined);
  const all = [...p.state.requests.values()].flatMap((r) => (r.check ? [[r.height, r.check.status]] : []));
  assert.deepEqual(all, [
    [1n, "running"],
    [2n, "running"],
    [3n, "running"],
  ]);
  const check1 = p.state.requests.get(1n)!.check!;
  const check2 = p.state.requests.get(2n)!.check!;
  // Block 2's check passes first: nothing applies before block 1's.
  assert.deepEqual(
    p.feed({ type: "CommitChecked", time: 0, height: 2n, checkId: check2.id, block: verified(2n) }),
    [],
  );
  const apply = p.feed({
    type: "CommitChecked",
    time: 0,
    height: 1n,
    checkId: check1.id,
    block: verified(1n),
  });
  assert.equal(apply.length, 1);
  const v = apply[0]!;
  assert.ok(v.type === "VerifyAndApply");
  assert.equal(v.height, 1n);
  assert.deepEqual(v.checked, verified(1n));
  // Block 1 applied with the set unchanged: block 2, checked already, applies at once.
  const next = p.feed(applied(1n, setA, setA));
  assert.ok(next.some((e) => e.type === "VerifyAndApply" && e.height === 2n && e.checked !== undefined));
  assert.equal(checks(next).length, 0, "no second check of block 2");
});

test("a block checked ahead with a set that changed is checked again with the set that signs it", () => {
  const p = pool();
  p.feed(status("a", 4n));
  const first = checks(p.feed(received("a", makeBlock(1n, []))));
  assert.deepEqual(first, []);
  p.feed(received("a", makeBlock(2n, [])));
  p.feed(received("a", makeBlock(3n, [])));
  const c1 = p.state.requests.get(1n)!.check!;
  const c2 = p.state.requests.get(2n)!.check!;
  p.feed({ type: "CommitChecked", time: 0, height: 2n, checkId: c2.id, block: verified(2n) });
  p.feed({ type: "CommitChecked", time: 0, height: 1n, checkId: c1.id, block: verified(1n) });
  assert.equal(p.state.applying, 1n);
  // Block 1's results change the set: height 2 is signed by B, not A (a guess it was checked with).
  const out = p.feed(applied(1n, setB, setB));
  assert.ok(!out.some((e) => e.type === "VerifyAndApply"), "block 2 waits for its new check");
  const again = checks(out);
  assert.equal(again[0]!.height, 2n);
  assert.equal(again[0]!.validators, setB.set);
  const apply = p.feed(passed(again[0]!));
  assert.ok(apply.some((e) => e.type === "VerifyAndApply" && e.height === 2n));
});

test("a bad block found ahead drops the peer that sent it and its height is asked again", () => {
  const p = pool({ maxRequestsPerPeer: 2 });
  p.feed(status("a", 4n));
  p.feed(status("b", 4n));
  // a: 1, 2; b: 3, 4.
  p.feed(received("a", makeBlock(1n, [])));
  p.feed(received("a", makeBlock(2n, [])));
  p.feed(received("b", makeBlock(3n, [])));
  p.feed(received("b", makeBlock(4n, [])));
  const c1 = p.state.requests.get(1n)!.check!;
  const c2 = p.state.requests.get(2n)!.check!;
  p.feed({ type: "CommitChecked", time: 0, height: 1n, checkId: c1.id, block: verified(1n) });
  assert.equal(p.state.applying, 1n);
  // Block 2 (from a) fails its check while block 1 applies; 2 is signed by the set known now.
  const out = p.feed({
    type: "BlockRejected",
    time: 0,
    height: 2n,
    checkId: c2.id,
    reason: "wrong block ID",
    blame: "first",
  });
  const dropped = out.flatMap((e) => (e.type === "DropPeer" ? [e.peerId] : []));
  assert.deepEqual(dropped, ["a"]);
  assert.match((out.find((e) => e.type === "DropPeer") as { reason: string }).reason, /block 2 failed/);
  assert.ok(out.some((e) => e.type === "RequestBlock" && e.peerId === "b" && e.height === 2n));
  assert.equal(p.state.requests.get(2n)!.block, undefined);
  assert.equal(p.state.applying, 1n, "block 1 keeps applying");
});

test("a check that failed with a guessed set waits for the set known to sign the height", () => {
  const p = pool({}, { current: setA, next: setA });
  p.feed(status("a", 5n));
  for (const h of [1n, 2n, 3n, 4n]) p.feed(received("a", makeBlock(h, [])));
  const c3 = p.state.requests.get(3n)!.check!;
  // Height 3 is beyond height + 1: its set is a guess. Its failure drops nobody yet.
  const out = p.feed({
    type: "BlockRejected",
    time: 0,
    height: 3n,
    checkId: c3.id,
    reason: "bad sig",
    blame: "both",
  });
  assert.deepEqual(
    out.filter((e) => e.type === "DropPeer"),
    [],
  );
  assert.equal(p.state.requests.get(3n)!.check!.status, "failed");
  // Block 1 applies and the set changes from height 3 on: block 3 is checked again with B.
  const c1 = p.state.requests.get(1n)!.check!;
  p.feed({ type: "CommitChecked", time: 0, height: 1n, checkId: c1.id, block: verified(1n) });
  const after = p.feed(applied(1n, setA, setB));
  assert.deepEqual(
    after.filter((e) => e.type === "DropPeer"),
    [],
  );
  const again = checks(after).find((c) => c.height === 3n);
  assert.ok(again !== undefined, "block 3 checked again");
  assert.equal(again.validators, setB.set);
});

test("the answer to the check of a block since replaced is ignored", () => {
  const p = pool({ maxRequestsPerPeer: 2 });
  p.feed(status("a", 4n));
  p.feed(status("b", 4n));
  p.feed(received("a", makeBlock(1n, [])));
  p.feed(received("a", makeBlock(2n, [])));
  p.feed(received("b", makeBlock(3n, [])));
  const old = p.state.requests.get(2n)!.check!;
  // b sends an impossible status: it is dropped, its block 3 is fetched again, and block 2's
  // check (against block 3's commit) is forgotten.
  p.feed({ type: "PeerStatusReceived", time: 0, peerId: "b", base: 5n, height: 1n });
  assert.equal(p.state.requests.get(3n)?.block, undefined);
  assert.equal(p.state.requests.get(2n)!.check, undefined);
  assert.deepEqual(
    p.feed({ type: "CommitChecked", time: 0, height: 2n, checkId: old.id, block: verified(2n) }),
    [],
  );
  assert.equal(p.state.requests.get(2n)!.check, undefined);
});

test("without the sets the pool checks each block at its turn only, as before", () => {
  const p = {
    state: initialBlockPoolState(1n, 0, DEFAULT_BLOCK_POOL_PARAMS) as BlockPoolState,
    feed(input: BlockPoolInput): BlockPoolEffect[] {
      const r = blockPoolReducer(p.state, input);
      p.state = r.state;
      return [...r.effects];
    },
  };
  p.feed(status("a", 3n));
  p.feed(received("a", makeBlock(1n, [])));
  const out = p.feed(received("a", makeBlock(2n, [])));
  assert.deepEqual(
    out.map((e) => e.type),
    ["VerifyAndApply"],
  );
  assert.equal((out[0] as { checked?: unknown }).checked, undefined);
});
