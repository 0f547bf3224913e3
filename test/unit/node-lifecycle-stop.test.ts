// A graceful stop (streams/node-lifecycle.ts shutdown) closes the stores only after the work under
// way, including what that work registers after the stop began: a commit under way registers its
// state save behind it (block-commit.ts, `stateSaves`) only as it returns. Closed before that
// save, the stores would hold block = state + 1 after a clean stop.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Subscription } from "rxjs";
import { createLogger } from "../../src/logger/index.js";
import { StateSaveTail } from "../../streams/effects/state-save-tail.js";
import { NodeLifecycle } from "../../streams/node-lifecycle.js";
import { deferred, recordingCommit } from "./block-commit-fixture.js";

const silent = createLogger({ level: "none" });
const settle = () => new Promise((r) => setTimeout(r, 10));

describe("node lifecycle: a stop waits for work registered while it waits", () => {
  it("closes the stores after the state save a commit under way registered behind it", async () => {
    const life = new NodeLifecycle(silent);
    const stateWrite = deferred();
    const c = recordingCommit({
      tail: new StateSaveTail(),
      stateWrite: stateWrite.promise,
      markEndHeight: true,
    });
    life.onCleanup(() => {
      c.order.push("stores closed");
    });
    const committing = life.track(c.runWith({ track: life.track }));
    await settle();
    // The stop begins while the block is still being written: the state save is not registered yet.
    const stopped = life.shutdown({ exitCode: 0, reason: "stop requested" });
    c.blockWrite.resolve();
    await committing;
    assert.equal(c.order.at(-1), "state save started");
    await settle();
    assert.ok(!c.order.includes("stores closed"), `closed before the state was saved: ${c.order.join(", ")}`);
    stateWrite.resolve();
    await stopped;
    assert.deepEqual(c.order.slice(-2), ["state saved", "stores closed"]);
  });

  it("waits for a chain of work, each link registered by the one before as it ends", async () => {
    const life = new NodeLifecycle(silent);
    const order: string[] = [];
    life.onCleanup(() => {
      order.push("closed");
    });
    const link = (n: number): Promise<void> =>
      new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => {
        order.push(`link ${n}`);
        if (n < 3) void life.track(link(n + 1));
      });
    void life.track(link(1));
    await life.shutdown({ exitCode: 0, reason: "stop requested" });
    assert.deepEqual(order, ["link 1", "link 2", "link 3", "closed"]);
  });

  it("unwinds a start the way it stops: loops unsubscribed and work ended before anything closes", async () => {
    const life = new NodeLifecycle(silent);
    const order: string[] = [];
    life.onCleanup(() => {
      order.push("stores closed");
    });
    life.onCleanup(() => {
      order.push("peers closed");
    });
    life.run(new Subscription(() => order.push("loops unsubscribed")));
    const write = deferred();
    void life.track(write.promise.then(() => order.push("write ended")));
    const unwound = life.unwindStart();
    await settle();
    assert.deepEqual(order, ["loops unsubscribed"], "nothing closed while a write is under way");
    write.resolve();
    await unwound;
    assert.deepEqual(order, ["loops unsubscribed", "write ended", "peers closed", "stores closed"]);
    assert.equal(life.isStopping, true, "a halt after the unwind does not close things twice");
  });
});
