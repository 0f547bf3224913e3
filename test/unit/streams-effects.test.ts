// The node's effect handlers and projections, each alone: timeouts replace each other on the
// injected scheduler; signing syncs the log first and turns a refusal into SignFailed; the
// restart rule keeps only unanswered requests; a failed block commit halts without answering;
// Tx events carry Tendermint's composite keys; broadcast_tx_commit's wait ends on the Tx event,
// returns at once on a refusal and times out with the hash.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import {
  asapScheduler,
  asyncScheduler,
  firstValueFrom,
  queueScheduler,
  Subject,
  toArray,
  VirtualTimeScheduler,
} from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import { createLogger } from "../../src/logger/index.js";
import { PrivvalError } from "../../src/privval/errors.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { blockCommitHandler } from "../../streams/effects/block-commit.js";
import { signingHandler } from "../../streams/effects/signing.js";
import { timeoutHandler } from "../../streams/effects/timeouts.js";
import { NodeError } from "../../streams/node-errors.js";
import type { NodeEvent } from "../../streams/node-handle.js";
import { EventBus } from "../../streams/projections/event-bus.js";
import { submitAndWaitForCommit } from "../../streams/projections/tx-commit-waiter.js";
import { outstandingEffects } from "../../streams/restart-fold.js";
import { UNSTAMPED } from "../../streams/sources/stamp-time.js";

const silent = createLogger({ level: "none" });
const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

function vote(height: bigint, round: number, type: SignedMsgType): Vote {
  return {
    type,
    height,
    round,
    blockId: { hash: bytes(32), partSetHeader: { total: 1, hash: bytes(32, 2) } },
    timestamp: { seconds: 1n, nanos: 0 },
    validatorAddress: bytes(20),
    validatorIndex: 0,
    signature: new Uint8Array(0),
  };
}

describe("streams: timeouts", () => {
  it("fires TimeoutElapsed after the duration, a newer timeout replacing an older one", () => {
    const scheduler = new VirtualTimeScheduler();
    const effect$ = new Subject<ConsensusEffect>();
    const fired: ConsensusInput[] = [];
    timeoutHandler(scheduler)(effect$).subscribe((i) => fired.push(i));
    effect$.next({ type: "ScheduleTimeout", height: 5n, round: 0, step: RoundStep.Propose, durationMs: 100 });
    effect$.next({
      type: "ScheduleTimeout",
      height: 5n,
      round: 0,
      step: RoundStep.PrevoteWait,
      durationMs: 300,
    });
    scheduler.flush();
    assert.equal(fired.length, 1, "the first timeout was replaced");
    assert.deepEqual(fired[0], {
      type: "TimeoutElapsed",
      time: UNSTAMPED,
      height: 5n,
      round: 0,
      step: RoundStep.PrevoteWait,
    });
    assert.equal(scheduler.now(), 300);
  });

  it("fires a timeout already due on the `due` scheduler, without waiting for a timer tick", async () => {
    const effect$ = new Subject<ConsensusEffect>();
    const fired: string[] = [];
    timeoutHandler(asyncScheduler, asapScheduler)(effect$).subscribe((i) => fired.push(i.type));
    // timeout_commit = 0: the next height's round 0 is due at once.
    effect$.next({ type: "ScheduleTimeout", height: 6n, round: 0, step: RoundStep.NewHeight, durationMs: 0 });
    assert.deepEqual(fired, [], "never inside the fold that scheduled it");
    // A timer tick is at least 1 ms and comes after this turn's setImmediate callbacks.
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(fired, ["TimeoutElapsed"]);
    // A timeout still to wait for stays on the scheduler's timer. Its duration is long enough that
    // a loaded machine's stall between the schedule and the next turn cannot reach it.
    effect$.next({ type: "ScheduleTimeout", height: 6n, round: 0, step: RoundStep.Propose, durationMs: 400 });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(fired, ["TimeoutElapsed"]);
    await new Promise((r) => setTimeout(r, 450));
    assert.deepEqual(fired, ["TimeoutElapsed", "TimeoutElapsed"]);
  });

  it("completes when the effects end, only once the pending timeout has fired; a timer that fires at once leaves none pending", () => {
    const scheduler = new VirtualTimeScheduler();
    const effect$ = new Subject<ConsensusEffect>();
    const heard: string[] = [];
    timeoutHandler(
      scheduler,
      queueScheduler,
    )(effect$).subscribe({
      next: (i) => heard.push(i.type === "TimeoutElapsed" ? `step ${i.step}` : i.type),
      complete: () => heard.push("complete"),
    });
    // Due at once on a queue scheduler outside any queue: it fires inside the schedule call.
    effect$.next({ type: "ScheduleTimeout", height: 5n, round: 0, step: RoundStep.NewHeight, durationMs: 0 });
    assert.deepEqual(heard, [`step ${RoundStep.NewHeight}`]);
    effect$.next({ type: "ScheduleTimeout", height: 5n, round: 0, step: RoundStep.Propose, durationMs: 50 });
    effect$.complete();
    assert.deepEqual(heard, [`step ${RoundStep.NewHeight}`], "not complete while a timeout is pending");
    scheduler.flush();
    assert.deepEqual(heard, [`step ${RoundStep.NewHeight}`, `step ${RoundStep.Propose}`, "complete"]);
  });
});

describe("streams: signing", () => {
  it("syncs the log before each signature, keeps order, and turns a refusal into a coded SignFailed", async () => {
    const calls: string[] = [];
    const effect$ = new Subject<ConsensusEffect>();
    const out = firstValueFrom(
      signingHandler({
        signer: {
          async signVote(_chainId, v) {
            calls.push(`sign ${v.round}`);
            if (v.round === 1) throw new PrivvalError("PRIVVAL_CONFLICTING_DATA", "conflicting data");
            return { ...v, signature: bytes(64, 9) };
          },
          async signProposal() {
            throw new Error("unused");
          },
        },
        chainId: "c",
        syncLog: async () => {
          calls.push("sync");
        },
        logger: silent,
      })(effect$).pipe(toArray()),
    );
    effect$.next({ type: "SignVote", vote: vote(3n, 0, SignedMsgType.SIGNED_MSG_TYPE_PREVOTE) });
    effect$.next({ type: "SignVote", vote: vote(3n, 1, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT) });
    effect$.complete();
    const inputs = await out;
    assert.deepEqual(calls, ["sync", "sign 0", "sync", "sign 1"]);
    assert.equal(inputs[0]!.type, "VoteSigned");
    assert.deepEqual(inputs[1], {
      type: "SignFailed",
      time: UNSTAMPED,
      height: 3n,
      round: 1,
      what: "precommit",
      reason: "PRIVVAL_CONFLICTING_DATA: conflicting data",
    });
  });
});

describe("streams: the restart rule's outstanding effects", () => {
  it("keeps unanswered requests and the latest timeout, drops answered ones and broadcasts", () => {
    const prevote = vote(4n, 0, SignedMsgType.SIGNED_MSG_TYPE_PREVOTE);
    const precommit = vote(4n, 0, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT);
    const t = (step: RoundStep) =>
      ({ type: "ScheduleTimeout", height: 4n, round: 0, step, durationMs: 10 }) as const;
    const steps = [
      {
        input: { type: "TimeoutElapsed", time: UNSTAMPED, height: 4n, round: 0, step: 1 } as ConsensusInput,
        effects: [t(RoundStep.NewHeight), { type: "SignVote", vote: prevote } as ConsensusEffect],
      },
      {
        input: { type: "VoteSigned", time: UNSTAMPED, vote: prevote } as ConsensusInput,
        effects: [
          { type: "BroadcastVote", vote: prevote } as ConsensusEffect,
          { type: "SignVote", vote: precommit } as ConsensusEffect,
          t(RoundStep.Propose),
        ],
      },
    ];
    assert.deepEqual(outstandingEffects(steps), [
      t(RoundStep.Propose),
      { type: "SignVote", vote: precommit },
    ]);
  });
});

describe("streams: block commit", () => {
  it("halts with the height and hash when execution fails, and answers nothing", async () => {
    const halts: string[] = [];
    const effect$ = new Subject<ConsensusEffect>();
    const out = firstValueFrom(
      blockCommitHandler({
        consensus: {
          beginBlock: async () => {
            throw new Error("app connection lost");
          },
        } as never,
        stores: {
          blockStore: { height: () => 7n, saveBlock: async () => {} },
          stateStore: {},
          indexer: {},
        } as never,
        chainState: () =>
          ({ lastBlockHeight: 7n, initialHeight: 1n, lastValidators: { validators: [] } }) as never,
        setChainState: () => assert.fail("no new state"),
        executed: { put: () => assert.fail("no results") },
        endHeight: async () => assert.fail("no end-of-height marker"),
        blockCommitted: () => assert.fail("no mempool update"),
        halt: (reason) => halts.push(reason),
        logger: silent,
      })(effect$).pipe(toArray()),
    );
    effect$.next({
      type: "CommitBlock",
      height: 8n,
      round: 0,
      blockId: { hash: bytes(32, 0xab), partSetHeader: { total: 1, hash: bytes(32) } },
      block: { header: { height: 8n }, data: { txs: [] }, evidence: { evidence: [] } } as never,
      partSetHeader: { total: 1, hash: bytes(32) },
      parts: [],
      seenCommit: {} as never,
    });
    effect$.complete();
    assert.deepEqual(await out, []);
    assert.equal(halts.length, 1);
    assert.match(halts[0]!, /^committing block 8 \(ABAB[0-9A-F]{60}\) failed: \S/);
  });
});

describe("streams: event bus", () => {
  it("gives Tx events tm.event, tx.hash, tx.height and the DeliverTx attributes as composite keys", () => {
    const bus = new EventBus();
    const seen: NodeEvent[] = [];
    bus.events$.subscribe((e) => seen.push(e));
    const enc = new TextEncoder();
    const tx = enc.encode("a=b");
    bus.publishBlock(
      { header: { height: 9n }, data: { txs: [tx] } } as never,
      {
        height: 9n,
        beginBlock: [],
        endBlock: [
          { type: "end", attributes: [{ key: enc.encode("k"), value: enc.encode("v"), index: true }] },
        ],
        txs: [
          {
            height: 9n,
            index: 0,
            tx,
            result: {
              events: [
                {
                  type: "app",
                  attributes: [{ key: enc.encode("key"), value: enc.encode("a"), index: true }],
                },
                { type: "", attributes: [{ key: enc.encode("x"), value: enc.encode("y"), index: true }] },
              ],
            } as never,
          },
        ],
        validatorUpdates: [],
      },
      { events: [] },
      { validatorUpdates: [], consensusParamUpdates: undefined, events: [] },
      [],
    );
    assert.deepEqual(
      seen.map((e) => e.type),
      ["NewBlock", "NewBlockHeader", "Tx"],
    );
    assert.deepEqual(seen[0]!.events, { "tm.event": ["NewBlock"], "end.k": ["v"] });
    assert.deepEqual(seen[2]!.events, {
      "app.key": ["a"],
      "tm.event": ["Tx"],
      "tx.hash": [createHash("sha256").update("a=b").digest("hex").toUpperCase()],
      "tx.height": ["9"],
    });
  });
});

describe("streams: broadcast_tx_commit's wait", () => {
  const hash = "AA".repeat(32);
  const added = { hash, outcome: { kind: "added" as const }, checkTx: { code: 0 } as never };

  it("returns the admission at once when the tx is refused", async () => {
    const refused = { hash, outcome: { kind: "invalid" as const, code: 5 }, checkTx: { code: 5 } as never };
    const r = await submitAndWaitForCommit(new Subject<NodeEvent>(), async () => refused, hash, 10_000);
    assert.equal(r, refused);
  });

  it("resolves with the DeliverTx result and height of the tx's Tx event", async () => {
    const events = new Subject<NodeEvent>();
    const r = submitAndWaitForCommit(
      events,
      async () => {
        setTimeout(() => {
          events.next({
            type: "Tx",
            data: { txResult: { height: 3n, index: 0, tx: bytes(1), result: { code: 0 } } },
            events: { "tx.hash": ["BB"] },
          });
          events.next({
            type: "Tx",
            data: { txResult: { height: 4n, index: 1, tx: bytes(1), result: { code: 0, log: "ok" } } },
            events: { "tx.hash": [hash] },
          });
        }, 5);
        return added;
      },
      hash,
      10_000,
    );
    assert.deepEqual(await r, { hash, checkTx: { code: 0 }, deliverTx: { code: 0, log: "ok" }, height: 4n });
  });

  it("rejects with NODE_TX_COMMIT_TIMEOUT carrying the hash", async () => {
    await assert.rejects(
      submitAndWaitForCommit(new Subject<NodeEvent>(), async () => added, hash, 20),
      (e: unknown) => e instanceof NodeError && e.code === "NODE_TX_COMMIT_TIMEOUT" && e.txHash === hash,
    );
  });
});
