// The send/recv monitors net_info shows, and the rate limiter behind send_rate / recv_rate, on a
// controlled clock.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FlowMonitor, RateLimiter } from "../../src/p2p/mconnection/flow-monitor.js";

test("flow monitor: bytes, samples, rates and idle time", () => {
  let now = 1_700_000_000_000;
  const monitor = new FlowMonitor(() => now);
  monitor.update(1000);
  now += 100;
  monitor.update(1000); // closes a 100 ms sample of 2000 bytes: 20,000 B/s
  let s = monitor.status();
  assert.equal(s.bytes, 2000);
  assert.equal(s.samples, 1);
  assert.equal(s.instRate, 20000);
  assert.equal(s.curRate, 20000);
  assert.equal(s.peakRate, 20000);
  assert.equal(s.avgRate, 20000);
  assert.equal(s.duration, 100 * 1e6);
  assert.equal(s.active, true);
  assert.equal(s.start, new Date(1_700_000_000_000).toISOString());
  now += 500;
  s = monitor.status(); // a 500 ms sample with nothing: the EMA falls, the peak stays
  assert.equal(s.instRate, 0);
  assert.ok(s.curRate < 20000 && s.curRate > 0);
  assert.equal(s.peakRate, 20000);
  assert.equal(s.idle, 500 * 1e6);
  monitor.done();
  assert.equal(monitor.status().active, false);
});

test("rate limiter: allows a burst, then waits for the debt at the configured rate", () => {
  let now = 0;
  const limiter = new RateLimiter(1000, 100, () => now);
  assert.equal(limiter.ready(), true);
  limiter.consume(600); // 100 tokens - 600 = -500
  assert.equal(limiter.ready(), false);
  assert.equal(limiter.waitMs(), 501);
  now += 501;
  assert.equal(limiter.ready(), true);
  now += 10_000;
  limiter.consume(100);
  assert.equal(limiter.ready(), false, "the burst is capped at 100 tokens");
});
