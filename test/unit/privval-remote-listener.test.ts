// The node's end of the remote signer on virtual time: key check per connection, request and
// answer, read/write and accept timeouts, pings, v0.34's retry rule (50 attempts 100 ms apart,
// each waiting up to 3 s for a connection), and the final rejection that makes the node halt.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  initialListenerState,
  type ListenerEffect,
  type ListenerInput,
  type ListenerState,
  listenerReducer,
  listenerWakeAt,
  V034_LISTENER_TIMING,
} from "../../src/privval/remote/listener-machine.js";
import {
  emptyVote,
  pingResponse,
  pubKeyErrorResponse,
  pubKeyResponse,
  signedVoteErrorResponse,
  signedVoteResponse,
  signVoteRequest,
} from "../../src/privval/remote/messages.js";
import type { Message } from "../../src/wire/generated/tendermint/privval/types.js";

const KEY = new Uint8Array(32).fill(7);
const OTHER_KEY = new Uint8Array(32).fill(9);
const config = { address: "unix:///tmp/pv.sock", chainId: "test-chain", ...V034_LISTENER_TIMING };
const vote = { ...emptyVote(), type: 1, height: 5n };

/** Drives the reducer: inputs at given times, Ticks delivered whenever the machine asks for one. */
class Harness {
  state: ListenerState = initialListenerState(config, 0);
  effects: ListenerEffect[] = [];
  now = 0;

  apply(input: ListenerInput): ListenerEffect[] {
    const out = listenerReducer(this.state, input);
    this.state = out.state;
    this.effects.push(...out.effects);
    return out.effects;
  }

  /** Delivers the Ticks due up to `to`, then sets the clock there. */
  advance(to: number): ListenerEffect[] {
    const before = this.effects.length;
    for (let guard = 0; guard < 100_000; guard++) {
      const wake = listenerWakeAt(this.state);
      if (wake === undefined || wake > to) break;
      this.now = Math.max(this.now, wake);
      this.apply({ type: "Tick", now: this.now });
    }
    this.now = to;
    return this.effects.slice(before);
  }

  at(dt: number, input: Untimed<ListenerInput>): ListenerEffect[] {
    this.advance(this.now + dt);
    return this.apply({ ...input, now: this.now } as ListenerInput);
  }

  /** Connects a signer with `key` and completes the key exchange. */
  connect(connId: number, key = KEY): ListenerEffect[] {
    const a = this.at(0, { type: "Accepted", connId, remote: "signer" });
    this.at(0, { type: "Written", connId });
    return [...a, ...this.at(1, { type: "Received", connId, message: pubKeyResponse(key) })];
  }

  writes(): Message[] {
    return this.effects.flatMap((e) => (e.type === "Write" ? [e.message] : []));
  }
}

type Untimed<T> = T extends unknown ? Omit<T, "now"> : never;

const of = <T extends ListenerEffect["type"]>(fx: ListenerEffect[], type: T) =>
  fx.filter((e): e is Extract<ListenerEffect, { type: T }> => e.type === type);

describe("remote signer listener (node side)", () => {
  it("says what it waits for and where while no signer dials in", () => {
    const h = new Harness();
    const logs = of(h.advance(10_000), "Log");
    assert.ok(logs.length >= 2, "a waiting message every accept timeout");
    assert.equal(logs[0]!.msg, "waiting for a remote signer to dial in (priv_validator_laddr)");
    assert.equal(logs[0]!.fields.address, "unix:///tmp/pv.sock");
    assert.equal(logs[0]!.fields.waited, "3s");
  });

  it("asks a new connection for its key on the node's chain, and learns the first key", () => {
    const h = new Harness();
    const fx = h.connect(1);
    const first = h.writes()[0]!;
    assert.deepEqual(first.sum, { $case: "pubKeyRequest", pubKeyRequest: { chainId: "test-chain" } });
    assert.deepEqual(of(fx, "KeyLearnt")[0]!.publicKey, KEY);
    assert.equal(h.state.conn?.verified, true);
    assert.equal(of(h.advance(20_000), "Log").filter((l) => l.msg.startsWith("waiting")).length, 0);
  });

  it("a first signer refusing the chain ID stops the start with its reason", () => {
    const h = new Harness();
    h.at(0, { type: "Accepted", connId: 1, remote: "s" });
    const fx = h.at(0, {
      type: "Received",
      connId: 1,
      message: pubKeyErrorResponse({
        code: 0,
        description: 'PRIVVAL_WRONG_CHAIN_ID: this signer signs for chain "other"',
      }),
    });
    const refused = of(fx, "KeyRefused")[0]!;
    assert.equal(refused.code, "PRIVVAL_WRONG_CHAIN_ID");
    assert.match(
      refused.reason,
      /unix:\/\/\/tmp\/pv.sock refused to give its public key for chain "test-chain"/,
    );
    assert.equal(of(fx, "Close").length, 1);
  });

  it("sends a signing request at once on a ready connection and resolves with the answer", () => {
    const h = new Harness();
    h.connect(1);
    const fx = h.at(10, {
      type: "Requested",
      id: 1,
      what: "prevote",
      message: signVoteRequest("test-chain", vote),
    });
    assert.equal(of(fx, "Write")[0]!.message.sum?.$case, "signVoteRequest");
    h.at(1, { type: "Written", connId: 1 });
    const answer = signedVoteResponse({ ...vote, signature: new Uint8Array(64) });
    const done = h.at(2, { type: "Received", connId: 1, message: answer });
    assert.deepEqual(of(done, "Resolve"), [{ type: "Resolve", id: 1, message: answer }]);
  });

  it("hands a refusal back at once: an answer with an error is never retried", () => {
    const h = new Harness();
    h.connect(1);
    h.at(0, { type: "Requested", id: 1, what: "prevote", message: signVoteRequest("test-chain", vote) });
    h.at(0, { type: "Written", connId: 1 });
    const refusal = signedVoteErrorResponse({ code: 0, description: "PRIVVAL_CONFLICTING_DATA: no" });
    const fx = h.at(1, { type: "Received", connId: 1, message: refusal });
    assert.equal(of(fx, "Resolve").length, 1);
    assert.equal(h.writes().filter((m) => m.sum?.$case === "signVoteRequest").length, 1);
  });

  it("drops a connection whose answer misses the read timeout, and asks again on the next one", () => {
    const h = new Harness();
    h.connect(1);
    h.at(0, { type: "Requested", id: 1, what: "precommit", message: signVoteRequest("test-chain", vote) });
    h.at(0, { type: "Written", connId: 1 });
    const fx = h.advance(h.now + 5000);
    const close = of(fx, "Close")[0]!;
    assert.match(close.reason, /no answer to the request within 5s \(read timeout\)/);
    // A signer dials in again: its key is checked first, then the request goes out again.
    h.at(500, { type: "Accepted", connId: 2, remote: "signer" });
    assert.equal(h.writes().at(-1)!.sum?.$case, "pubKeyRequest");
    h.at(0, { type: "Written", connId: 2 });
    h.at(1, { type: "Received", connId: 2, message: pubKeyResponse(KEY) });
    assert.equal(h.writes().at(-1)!.sum?.$case, "signVoteRequest");
    h.at(0, { type: "Written", connId: 2 });
    const done = h.at(1, { type: "Received", connId: 2, message: signedVoteResponse(vote) });
    assert.equal(of(done, "Resolve")[0]!.id, 1);
  });

  it("a write that does not complete within 5 s drops the connection", () => {
    const h = new Harness();
    h.connect(1);
    h.at(0, { type: "Requested", id: 1, what: "prevote", message: signVoteRequest("test-chain", vote) });
    const fx = h.advance(h.now + 5000);
    assert.match(of(fx, "Close")[0]!.reason, /write of the request timed out after 5s/);
  });

  it("rejects after v0.34's 50 attempts when the signer is gone mid-height, never sooner", () => {
    const h = new Harness();
    h.connect(1);
    h.at(0, { type: "Requested", id: 1, what: "precommit", message: signVoteRequest("test-chain", vote) });
    const start = h.now;
    h.at(0, { type: "Closed", connId: 1, reason: "EOF" });
    // The first attempt failed with the connection; each of the 49 others waits 100 ms, then 3 s.
    const early = h.advance(start + 49 * 3100 - 10);
    assert.equal(of(early, "Reject").length, 0);
    const fx = h.advance(start + 49 * 3100 + 10);
    const reject = of(fx, "Reject")[0]!;
    assert.equal(reject.code, "PRIVVAL_REMOTE_UNAVAILABLE");
    assert.match(reject.reason, /did not answer the precommit after 50 attempts over 151\.9s/);
    assert.match(reject.reason, /last error: no remote signer connected within 3s \(accept timeout\)/);
    assert.equal(h.state.queue.length, 0);
  });

  it("a signer that comes back within the retries answers the pending request", () => {
    const h = new Harness();
    h.connect(1);
    h.at(0, { type: "Requested", id: 1, what: "prevote", message: signVoteRequest("test-chain", vote) });
    h.at(0, { type: "Written", connId: 1 });
    h.at(3, { type: "Closed", connId: 1, reason: "ECONNRESET" });
    h.advance(h.now + 20_000);
    h.connect(2);
    h.at(0, { type: "Written", connId: 2 });
    const fx = h.at(1, { type: "Received", connId: 2, message: signedVoteResponse(vote) });
    assert.equal(of(fx, "Resolve").length, 1);
    assert.equal(of(h.effects, "Reject").length, 0);
  });

  it("closes a reconnecting signer that answers with another key, and keeps waiting", () => {
    const h = new Harness();
    h.connect(1);
    h.at(0, { type: "Closed", connId: 1, reason: "EOF" });
    h.at(0, { type: "Requested", id: 1, what: "prevote", message: signVoteRequest("test-chain", vote) });
    const fx = h.connect(2, OTHER_KEY);
    const err = of(fx, "Log").find((l) => l.level === "error")!;
    assert.match(err.msg, /answers with public key 0909.*but this node signs with 0707/);
    assert.equal(err.fields.code, "PRIVVAL_REMOTE_WRONG_KEY");
    assert.equal(of(fx, "Close").length, 1);
    assert.equal(of(fx, "KeyRefused").length, 0, "not a start failure: the node goes on waiting");
    assert.equal(h.writes().filter((m) => m.sum?.$case === "signVoteRequest").length, 0);
  });

  it("pings an idle connection every 2/3 of the read/write timeout, and drops it when the ping is not answered", () => {
    const h = new Harness();
    h.connect(1);
    const t0 = h.now;
    const fx = h.advance(t0 + 3333);
    assert.equal(of(fx, "Write")[0]!.message.sum?.$case, "pingRequest");
    h.at(0, { type: "Written", connId: 1 });
    h.at(2, { type: "Received", connId: 1, message: pingResponse() });
    const next = h.advance(h.now + 3333);
    assert.equal(of(next, "Write").length, 1, "the next ping 3.3 s after the answer");
    h.at(0, { type: "Written", connId: 1 });
    const lost = h.advance(h.now + 5000);
    assert.match(of(lost, "Close")[0]!.reason, /no answer to the ping within 5s/);
  });

  it("closes a second connection while one is in use", () => {
    const h = new Harness();
    h.connect(1);
    const fx = h.at(0, { type: "Accepted", connId: 2, remote: "intruder" });
    assert.deepEqual(
      of(fx, "Close").map((c) => c.connId),
      [2],
    );
    assert.equal(h.state.conn?.id, 1);
  });

  it("drops a connection answering the wrong message type, and retries the request", () => {
    const h = new Harness();
    h.connect(1);
    h.at(0, { type: "Requested", id: 1, what: "prevote", message: signVoteRequest("test-chain", vote) });
    h.at(0, { type: "Written", connId: 1 });
    const fx = h.at(1, { type: "Received", connId: 1, message: pingResponse() });
    assert.match(of(fx, "Close")[0]!.reason, /answered pingResponse where signedVoteResponse was expected/);
    assert.equal(h.state.queue[0]!.failures, 1);
  });

  it("stop rejects what is pending and closes the connection", () => {
    const h = new Harness();
    h.connect(1);
    h.at(0, { type: "Requested", id: 1, what: "prevote", message: signVoteRequest("test-chain", vote) });
    const fx = h.at(0, { type: "Stop" });
    assert.equal(of(fx, "Reject")[0]!.code, "PRIVVAL_REMOTE_STOPPED");
    assert.equal(of(fx, "Close").length, 1);
    assert.equal(listenerWakeAt(h.state), undefined);
  });
});
