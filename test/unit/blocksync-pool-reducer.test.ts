// The block pool on virtual time: v0.34's windows (20 per peer, 600 in all), eligibility by a
// peer's base..height, retries after 30 s, silent and slow peers dropped, blocks applied in
// order two at a time, liars (bad commit, wrong hash, unasked or foreign heights, impossible
// status, denied blocks) dropped with a reason and their heights fetched elsewhere, the switch
// rule, the fall-behind rule and the progress figures. A small in-test network answers
// RequestBlock after a delay; the sync ends caught up from the honest peers.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addProgressSample,
  type BlockPoolEffect,
  type BlockPoolInput,
  type BlockPoolParams,
  type BlockPoolState,
  blockPoolReducer,
  DEFAULT_BLOCK_POOL_PARAMS,
  initialBlockPoolState,
  isCaughtUp,
  requestsInFlight,
  syncProgress,
} from "../../src/blocksync/index.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { makeBlock } from "../fixtures/store/chain-fixture.js";

const block = (h: bigint, tag = ""): Block => {
  const b = makeBlock(h, []);
  if (tag !== "") b.header.chainId = tag;
  return b;
};

function pool(nextHeight = 1n, params: Partial<BlockPoolParams> = {}) {
  const holder = {
    state: initialBlockPoolState(nextHeight, 0, {
      ...DEFAULT_BLOCK_POOL_PARAMS,
      ...params,
    }) as BlockPoolState,
    feed(input: BlockPoolInput): BlockPoolEffect[] {
      const r = blockPoolReducer(holder.state, input);
      holder.state = r.state;
      return [...r.effects];
    },
  };
  return holder;
}
const status = (peerId: string, height: bigint, base = 1n, time = 0): BlockPoolInput => ({
  type: "PeerStatusReceived",
  time,
  peerId,
  base,
  height,
});
const received = (peerId: string, b: Block, time = 0, size = 10_000): BlockPoolInput => ({
  type: "BlockReceived",
  time,
  peerId,
  block: b,
  size,
});
const requests = (effects: BlockPoolEffect[]) =>
  effects.flatMap((e) => (e.type === "RequestBlock" ? [`${e.peerId}:${e.height}`] : []));
const drops = (effects: BlockPoolEffect[]) => effects.flatMap((e) => (e.type === "DropPeer" ? [e] : []));

test("a peer's status opens the window: at most 20 requests per peer, only heights it has", () => {
  const p = pool();
  const effects = p.feed(status("a", 50n));
  assert.equal(requests(effects).length, 20);
  assert.deepEqual(requests(effects).slice(0, 3), ["a:1", "a:2", "a:3"]);
  // The window holds every height up to the peer's; the rest wait for room at a peer.
  assert.equal(p.state.requests.size, 50);
  const b = p.feed(status("b", 30n, 25n));
  // b serves only 25..30: it gets those six, nothing below its base.
  assert.deepEqual(requests(b), ["b:25", "b:26", "b:27", "b:28", "b:29", "b:30"]);
  assert.equal(requestsInFlight(p.state), 26);
});

test("at most 600 requests in the window whatever the number of peers, the next opening as blocks apply", () => {
  const p = pool();
  let sent: string[] = [];
  for (let i = 0; i < 40; i++)
    sent = sent.concat(requests(p.feed(status(`p${String(i).padStart(2, "0")}`, 10_000n))));
  assert.equal(p.state.requests.size, 600);
  assert.equal(sent.length, 600);
  assert.equal(new Set(sent.map((s) => s.split(":")[1])).size, 600);
  assert.ok(!sent.some((s) => s.endsWith(":601")));
  // Blocks 1 and 2 come: block 1 is verified and applied, which opens height 601.
  const owner = (h: number) => sent.find((s) => s.endsWith(`:${h}`))!.split(":")[0]!;
  assert.deepEqual(p.feed(received(owner(1), block(1n))), []);
  const two = p.feed(received(owner(2), block(2n)));
  assert.equal(two.length, 1);
  assert.equal(two[0]!.type, "VerifyAndApply");
  const applied = p.feed({ type: "BlockApplied", time: 1, height: 1n });
  assert.deepEqual(
    requests(applied).map((s) => s.split(":")[1]),
    ["601"],
  );
  assert.equal(p.state.height, 2n);
});

test("blocks apply strictly in order, one VerifyAndApply at a time, with the next block's commit", () => {
  const p = pool(5n);
  p.feed(status("a", 10n));
  assert.deepEqual(p.feed(received("a", block(6n))), []);
  assert.deepEqual(p.feed(received("a", block(7n))), []);
  const e = p.feed(received("a", block(5n)));
  assert.equal(e.length, 1);
  const v = e[0]!;
  assert.ok(v.type === "VerifyAndApply");
  assert.equal(v.height, 5n);
  assert.equal(v.first.header.height, 5n);
  assert.equal(v.second.header.height, 6n);
  assert.equal(v.firstPeer, "a");
  // Nothing more while 5 is out.
  assert.deepEqual(p.feed(received("a", block(8n))), []);
  const next = p.feed({ type: "BlockApplied", time: 1, height: 5n });
  assert.ok(next.some((x) => x.type === "VerifyAndApply" && x.height === 6n));
  assert.throws(() => p.feed({ type: "BlockApplied", time: 2, height: 9n }), /BlockApplied 9/);
});

test("a request unanswered for 30 s goes to another peer; a late answer from the first is ignored", () => {
  const p = pool(1n, { peerTimeoutMs: 60_000 });
  p.feed(status("a", 5n));
  p.feed(status("b", 5n));
  // a took 1..5; b gets each one a leaves unanswered.
  p.feed(received("a", block(2n), 1, 1_000_000));
  p.feed(received("a", block(3n), 1, 1_000_000));
  p.feed(received("a", block(4n), 1, 1_000_000));
  p.feed(received("a", block(5n), 1, 1_000_000));
  assert.equal(p.state.requests.get(1n)!.peerId, "a");
  assert.deepEqual(requests(p.feed({ type: "Tick", time: 29_999 })), []);
  assert.deepEqual(requests(p.feed({ type: "Tick", time: 30_000 })), ["b:1"]);
  assert.deepEqual(drops(p.feed(received("a", block(1n), 30_001))), []);
  assert.equal(p.state.requests.get(1n)!.block, undefined);
  p.feed(received("b", block(1n), 30_002));
  assert.equal(p.state.requests.get(1n)!.from, "b");
});

test("a peer with requests pending that sends nothing for 15 s is dropped and its heights go elsewhere", () => {
  const p = pool();
  p.feed(status("a", 3n));
  p.feed(status("b", 3n));
  // a took 1..3 (fewest pending, lowest id wins); b has none until a is gone.
  assert.deepEqual(p.state.requests.get(2n)!.peerId, "a");
  assert.deepEqual(drops(p.feed({ type: "Tick", time: 14_999 })), []);
  const e = p.feed({ type: "Tick", time: 15_000 });
  assert.equal(drops(e).length, 1);
  assert.equal(drops(e)[0]!.peerId, "a");
  assert.match(drops(e)[0]!.reason, /sent nothing for 15 s with 3 requests pending/);
  assert.deepEqual(requests(e), ["b:1", "b:2", "b:3"]);
  assert.equal(p.state.peers.has("a"), false);
});

test("an idle peer is never timed out; a busy one's timer restarts with every block", () => {
  const p = pool();
  p.feed(status("a", 10n));
  // One block every 10 s: never 15 s of silence while busy.
  for (let h = 1; h <= 10; h++) {
    p.feed(received("a", block(BigInt(h)), h * 10_000, 1_000_000));
    assert.deepEqual(drops(p.feed({ type: "Tick", time: h * 10_000 + 9_000 })), [], `after block ${h}`);
  }
  assert.equal(p.state.peers.get("a")!.pending, 0);
  assert.deepEqual(drops(p.feed({ type: "Tick", time: 1_000_000 })), []);
});

test("a peer busy for a whole rate window that delivers under 7680 B/s is dropped", () => {
  const p = pool(1n, { peerTimeoutMs: 1_000_000, requestRetryMs: 1_000_000 });
  p.feed(status("slow", 100n));
  p.feed(status("fast", 100n, 1n, 0));
  for (let t = 1000; t <= 9000; t += 1000) {
    const mine = [...p.state.requests.values()].find((r) => r.peerId === "slow" && !r.block)!;
    p.feed(received("slow", block(mine.height), t, 500));
    const theirs = [...p.state.requests.values()].find((r) => r.peerId === "fast" && !r.block)!;
    p.feed(received("fast", block(theirs.height), t, 200_000));
  }
  const e = p.feed({ type: "Tick", time: 10_000 });
  assert.deepEqual(
    drops(e).map((d) => d.peerId),
    ["slow"],
  );
  assert.match(drops(e)[0]!.reason, /sends 450 B\/s, below the minimum 7680 B\/s/);
});

test("lies and breaches drop the peer with a reason: unasked height, another's height, twice, far away", () => {
  const p = pool(10n);
  p.feed(status("a", 12n));
  p.feed(status("b", 40n));
  // 10..12 went to a (lowest id), 13.. to b.
  const e1 = p.feed(received("b", block(11n)));
  assert.match(drops(e1)[0]!.reason, /sent block 11, which we asked of another peer/);
  const e2 = p.feed(received("a", block(41n)));
  assert.match(drops(e2)[0]!.reason, /sent block 41, which we never requested/);
  const q = pool(500n);
  q.feed(status("c", 600n));
  q.feed(received("c", block(500n)));
  assert.match(drops(q.feed(received("c", block(500n))))[0]!.reason, /sent block 500 twice/);
  const r = pool(500n);
  r.feed(status("d", 600n));
  assert.match(drops(r.feed(received("d", block(3n))))[0]!.reason, /sent block 3, 497 heights away/);
  // Close below our height: a late answer, ignored.
  const s = pool(500n);
  s.feed(status("e", 600n));
  assert.deepEqual(drops(s.feed(received("e", block(450n)))), []);
});

test("an impossible status drops the peer; a denied block it said it has is a lie", () => {
  const p = pool();
  assert.match(drops(p.feed(status("a", 5n, 9n)))[0]!.reason, /impossible status \(base 9, height 5\)/);
  assert.match(drops(p.feed(status("b", -1n, 0n)))[0]!.reason, /impossible status/);
  p.feed(status("c", 5n));
  p.feed(status("d", 5n));
  const e = p.feed({ type: "NoBlockReceived", time: 1, peerId: "c", height: 3n });
  assert.match(drops(e)[0]!.reason, /reported heights 1\.\.5 but has no block 3/);
  assert.deepEqual(requests(e), ["d:1", "d:2", "d:3", "d:4", "d:5"]);
});

test("a block that fails verification drops both senders; both heights are fetched again from others", () => {
  const p = pool();
  p.feed(status("liar", 4n));
  p.feed(received("liar", block(1n)));
  p.feed(received("liar", block(2n)));
  p.feed(status("honest", 4n));
  const e = p.feed({ type: "BlockRejected", time: 1, height: 1n, reason: "wrong signature", blame: "both" });
  const d = drops(e);
  assert.equal(d.length, 1);
  assert.equal(d[0]!.peerId, "liar");
  assert.match(d[0]!.reason, /block 1 failed verification against block 2: wrong signature/);
  assert.deepEqual(requests(e), ["honest:1", "honest:2", "honest:3", "honest:4"]);
  assert.equal(p.state.requests.get(1n)!.block, undefined);
});

test("the switch rule: a peer with status, and height >= max peer height - 1, checked every second", () => {
  const p = pool(1n);
  assert.deepEqual(
    p.feed({ type: "Tick", time: 2000 }).map((e) => e.type),
    ["BroadcastStatusRequest"],
  );
  assert.equal(isCaughtUp(p.state, 2000), false); // no peer
  p.feed(status("a", 0n, 0n, 2100));
  assert.equal(isCaughtUp(p.state, 2100), true); // every peer at genesis
  const e = p.feed({ type: "Tick", time: 3000 });
  assert.deepEqual(e, [{ type: "SwitchToConsensus", lastHeight: 0n, synced: 0, maxPeerHeight: 0n }]);
  assert.deepEqual(p.feed(status("b", 100n, 1n, 3001)), []); // switched: the pool is done
  const q = pool(98n);
  q.feed(status("a", 100n));
  assert.equal(isCaughtUp(q.state, 0), false);
  q.feed(received("a", block(98n)));
  q.feed(received("a", block(99n)));
  q.feed({ type: "BlockApplied", time: 1, height: 98n });
  assert.equal(isCaughtUp(q.state, 1), true);
  // A check while a block is out waits for it.
  const r = pool(99n);
  r.feed(status("a", 100n));
  r.feed(received("a", block(99n)));
  r.feed(received("a", block(100n)));
  assert.equal(r.state.applying, 99n);
  assert.equal(r.feed({ type: "Tick", time: 1000 }).filter((x) => x.type === "SwitchToConsensus").length, 0);
});

test("status is asked of every peer every 10 s while syncing", () => {
  const p = pool();
  const asked = [0, 5000, 9999, 10_000, 19_999, 20_000].filter((t) =>
    p.feed({ type: "Tick", time: t }).some((e) => e.type === "BroadcastStatusRequest"),
  );
  assert.deepEqual(asked, [0, 10_000, 20_000]);
});

test("a sync among honest, lying and silent peers completes from the honest ones", () => {
  const target = 300n;
  const p = pool(1n, { maxRequests: 100, maxRequestsPerPeer: 10 });
  const honest = new Map<bigint, Block>();
  for (let h = 1n; h <= target; h++) honest.set(h, block(h));
  type Pending = { at: number; input: BlockPoolInput };
  const queue: Pending[] = [];
  let now = 0;
  const dropped = new Map<string, string>();
  const behaviour: Record<string, (h: bigint) => Block | "silent" | "none"> = {
    honest1: (h) => honest.get(h)!,
    honest2: (h) => honest.get(h)!,
    forger: (h) => (h % 7n === 0n ? block(h, "forged") : honest.get(h)!),
    mute: () => "silent",
    denier: (h) => (h > 50n ? "none" : honest.get(h)!),
  };
  const handle = (effects: BlockPoolEffect[]) => {
    for (const e of effects) {
      if (e.type === "RequestBlock") {
        const answer = behaviour[e.peerId]!(e.height);
        if (answer === "silent") continue;
        queue.push({
          at: now + 5,
          input:
            answer === "none"
              ? { type: "NoBlockReceived", time: 0, peerId: e.peerId, height: e.height }
              : { type: "BlockReceived", time: 0, peerId: e.peerId, block: answer, size: 20_000 },
        });
      } else if (e.type === "VerifyAndApply") {
        // The port: a forged block does not match the next block's LastCommit.
        // The port: a forged block does not match the next block's LastCommit, whose signatures
        // are good, so the first block is to blame.
        const bad = e.first.header.chainId === "forged";
        queue.push({
          at: now + 1,
          input: bad
            ? { type: "BlockRejected", time: 0, height: e.height, reason: "wrong hash", blame: "first" }
            : { type: "BlockApplied", time: 0, height: e.height },
        });
      } else if (e.type === "DropPeer") {
        dropped.set(e.peerId, e.reason);
      } else if (e.type === "SwitchToConsensus") {
        queue.length = 0;
        switchedAt = e;
      }
    }
  };
  let switchedAt: BlockPoolEffect | undefined;
  for (const id of Object.keys(behaviour)) handle(p.feed(status(id, target, 1n, 0)));
  let nextTick = 100;
  for (let steps = 0; steps < 100_000 && switchedAt === undefined; steps++) {
    queue.sort((a, b) => a.at - b.at);
    const due = queue[0] !== undefined && queue[0].at <= nextTick ? queue.shift()! : undefined;
    if (due !== undefined) {
      now = due.at;
      const input = { ...due.input, time: now } as BlockPoolInput;
      if ("peerId" in input && dropped.has(input.peerId)) continue; // a dropped peer's messages stop
      handle(p.feed(input));
    } else {
      now = nextTick;
      nextTick += 100;
      handle(p.feed({ type: "Tick", time: now }));
    }
  }
  assert.ok(switchedAt !== undefined, `no switch; at height ${p.state.height}`);
  assert.equal(p.state.height, target); // every block but the last: it needs the next one's commit
  assert.deepEqual([...dropped.keys()].sort(), ["denier", "forger", "mute"], JSON.stringify([...dropped]));
  assert.match(dropped.get("forger")!, /failed verification/);
  assert.match(dropped.get("mute")!, /sent nothing/);
  assert.match(dropped.get("denier")!, /has no block/);
  assert.ok(now < 60_000, `took ${now} ms of virtual time`);
});

test("a rejection that knows the culprit drops only it: a forged commit blames the second block", () => {
  const p = pool();
  p.feed(status("a", 2n));
  p.feed(status("b", 4n));
  // a has 1 and 2 (fewest pending, lowest id); b 3 and 4. Block 2 comes from b after a re-request.
  p.feed(received("a", block(1n)));
  p.feed({ type: "PeerRemoved", time: 1, peerId: "a" });
  p.feed(received("b", block(2n)));
  assert.equal(p.state.applying, 1n);
  const e = p.feed({ type: "BlockRejected", time: 2, height: 1n, reason: "bad signature", blame: "second" });
  assert.deepEqual(
    drops(e).map((d) => d.peerId),
    ["b"],
  );
  // Block 1 (from a, which left) is kept: only the second was at fault.
  assert.equal(p.state.requests.get(1n)!.from, "a");
  assert.equal(p.state.requests.get(2n)?.block, undefined);
});

test("progress: blocks per second over the window and the time left at that rate", () => {
  let samples = addProgressSample([], { time: 0, height: 100n });
  assert.equal(syncProgress(samples, 1100n).etaSeconds, undefined);
  samples = addProgressSample(samples, { time: 5000, height: 600n });
  const p = syncProgress(samples, 1100n);
  assert.equal(p.blocksPerSecond, 100);
  assert.equal(p.etaSeconds, 5);
  assert.equal(p.height, 600n);
  // Old samples leave the 30 s window.
  for (let t = 10_000; t <= 60_000; t += 5000)
    samples = addProgressSample(samples, { time: t, height: 600n });
  assert.equal(syncProgress(samples, 1100n).blocksPerSecond, 0);
  assert.equal(syncProgress(samples, 600n).etaSeconds, 0);
});
