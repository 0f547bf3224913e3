// The signer's end of the remote signer on virtual time: v0.34's quick redials then a slower
// pace forever, the read timeout on a silent node, one request at a time in order, answers for a
// dead connection dropped.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type DialerEffect,
  type DialerInput,
  type DialerState,
  dialerReducer,
  dialerWakeAt,
  initialDialerState,
  V034_DIALER_TIMING,
} from "../../src/privval/remote/dialer-machine.js";
import {
  pingRequest,
  pingResponse,
  pubKeyRequest,
  pubKeyResponse,
} from "../../src/privval/remote/messages.js";

const config = { address: "unix:///tmp/pv.sock", ...V034_DIALER_TIMING };

class Harness {
  state: DialerState = initialDialerState(config, 0);
  effects: DialerEffect[] = [];
  now = 0;
  apply(input: DialerInput): DialerEffect[] {
    const out = dialerReducer(this.state, input);
    this.state = out.state;
    this.effects.push(...out.effects);
    return out.effects;
  }
  advance(to: number, onDial?: () => DialerInput | undefined): DialerEffect[] {
    const before = this.effects.length;
    for (let guard = 0; guard < 100_000; guard++) {
      const wake = dialerWakeAt(this.state);
      if (wake === undefined || wake > to) break;
      this.now = Math.max(this.now, wake);
      const fx = this.apply({ type: "Tick", now: this.now });
      if (onDial && fx.some((e) => e.type === "Dial")) {
        const answer = onDial();
        if (answer) this.apply({ ...answer, now: this.now } as DialerInput);
      }
    }
    this.now = to;
    return this.effects.slice(before);
  }
  at(dt: number, input: Untimed<DialerInput>): DialerEffect[] {
    this.advance(this.now + dt);
    return this.apply({ ...input, now: this.now } as DialerInput);
  }
}

type Untimed<T> = T extends unknown ? Omit<T, "now"> : never;

const of = <T extends DialerEffect["type"]>(fx: DialerEffect[], type: T) =>
  fx.filter((e): e is Extract<DialerEffect, { type: T }> => e.type === type);

describe("remote signer dialer (signer side)", () => {
  it("redials 100 ms apart ten times, then every second, warning once the quick retries are spent", () => {
    const h = new Harness();
    assert.equal(of(h.at(0, { type: "Start" }), "Dial").length, 1);
    const times: number[] = [];
    h.apply({ type: "DialFailed", now: 0, reason: "ENOENT" });
    h.advance(30_000, () => {
      times.push(h.now);
      return { type: "DialFailed", now: h.now, reason: "ECONNREFUSED" } as DialerInput;
    });
    assert.deepEqual(times.slice(0, 10), [100, 200, 300, 400, 500, 600, 700, 800, 900, 1900]);
    assert.equal(times[10]! - times[9]!, 1000);
    const warns = of(h.effects, "Log").filter((l) => l.level === "warn");
    assert.equal(warns.length, 1);
    assert.match(warns[0]!.msg, /does not answer; dialling again every 1s/);
    assert.equal(warns[0]!.fields.node, "unix:///tmp/pv.sock");
  });

  it("answers requests one at a time and in order", () => {
    const h = new Harness();
    h.at(0, { type: "Start" });
    h.at(0, { type: "Dialled", connId: 1 });
    const a = h.at(1, { type: "Received", connId: 1, message: pubKeyRequest("c") });
    assert.equal(of(a, "Handle")[0]!.message.sum?.$case, "pubKeyRequest");
    const b = h.at(0, { type: "Received", connId: 1, message: pingRequest() });
    assert.equal(of(b, "Handle").length, 0, "the second waits for the first answer to be written");
    const w = h.at(5, { type: "Handled", connId: 1, response: pubKeyResponse(new Uint8Array(32)) });
    assert.equal(of(w, "Write")[0]!.message.sum?.$case, "pubKeyResponse");
    const next = h.at(1, { type: "Written", connId: 1 });
    assert.equal(of(next, "Handle")[0]!.message.sum?.$case, "pingRequest");
  });

  it("drops a node that sends nothing within the read timeout, and dials again at once", () => {
    const h = new Harness();
    h.at(0, { type: "Start" });
    h.at(0, { type: "Dialled", connId: 1 });
    const fx = h.advance(5000);
    assert.match(of(fx, "Close")[0]!.reason, /no request from the node within 5s \(read timeout\)/);
    assert.equal(of(fx, "Dial").length, 1);
  });

  it("the read timeout restarts after each answer (the node's pings keep a connection up)", () => {
    const h = new Harness();
    h.at(0, { type: "Start" });
    h.at(0, { type: "Dialled", connId: 1 });
    for (let i = 0; i < 5; i++) {
      h.at(3333, { type: "Received", connId: 1, message: pingRequest() });
      h.at(0, { type: "Handled", connId: 1, response: pingResponse() });
      h.at(0, { type: "Written", connId: 1 });
    }
    assert.equal(of(h.effects, "Close").length, 0);
  });

  it("an answer for a connection that is gone is dropped; the node will ask again", () => {
    const h = new Harness();
    h.at(0, { type: "Start" });
    h.at(0, { type: "Dialled", connId: 1 });
    h.at(1, { type: "Received", connId: 1, message: pingRequest() });
    const lost = h.at(1, { type: "Closed", connId: 1, reason: "EOF" });
    assert.equal(of(lost, "Dial").length, 1);
    h.at(1, { type: "Dialled", connId: 2 });
    const fx = h.at(1, { type: "Handled", connId: 1, response: pingResponse() });
    assert.equal(of(fx, "Write").length, 0);
    assert.equal(of(h.effects, "Log").filter((l) => l.msg === "reconnected to the node").length, 1);
  });

  it("a node flooding requests without reading answers is dropped", () => {
    const h = new Harness();
    h.at(0, { type: "Start" });
    h.at(0, { type: "Dialled", connId: 1 });
    for (let i = 0; i < 9; i++) h.at(0, { type: "Received", connId: 1, message: pingRequest() });
    const fx = h.at(0, { type: "Received", connId: 1, message: pingRequest() });
    assert.match(of(fx, "Close")[0]!.reason, /more than 8 requests/);
  });

  it("a write not done within 5 s drops the connection", () => {
    const h = new Harness();
    h.at(0, { type: "Start" });
    h.at(0, { type: "Dialled", connId: 1 });
    h.at(1, { type: "Received", connId: 1, message: pingRequest() });
    h.at(0, { type: "Handled", connId: 1, response: pingResponse() });
    const fx = h.advance(h.now + 5000);
    assert.match(of(fx, "Close")[0]!.reason, /write of the answer timed out/);
  });
});
