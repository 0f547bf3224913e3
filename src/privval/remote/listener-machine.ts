// The node's end of the remote signer (v0.34's SignerListenerEndpoint, SignerClient and
// RetrySignerClient) as a pure reducer over time-stamped inputs. The driver (listener.ts) owns
// the socket and the timer; every rule is here:
//
// - One connection at a time. A new connection is first asked for the signer's public key: the
//   first key learnt is the node's key for the whole run, and a later connection answering with
//   another key is closed (v0.34 never asks again; a second signer would sign with a key nobody
//   expects). A connection arriving while one is in use is closed.
// - One exchange at a time on it: a request is written within the read/write timeout (5 s) and
//   answered within it again, or the connection is dropped.
// - An idle connection is pinged every 2/3 of the read/write timeout; a ping not answered drops it.
// - A signing request is tried up to `retries` times (50), `retryWaitMs` (100 ms) apart; an
//   attempt fails when no verified connection is available within the accept timeout (3 s) or the
//   connection is lost before the answer. After the last attempt the request is rejected
//   (the node then halts; it never signs by itself). An answer, even one with an error, ends the
//   request: a refusal is never retried.

import type { Message } from "../../wire/generated/tendermint/privval/types.js";
import type { RemoteSignerErrorCode } from "./errors.js";
import { expectedResponseCase, messageName, pingRequest, pubKeyRequest } from "./messages.js";

export interface ListenerConfig {
  /** The listen address, for messages (priv_validator_laddr). */
  address: string;
  chainId: string;
  acceptTimeoutMs: number;
  readWriteTimeoutMs: number;
  pingIntervalMs: number;
  retries: number;
  retryWaitMs: number;
}

/** v0.34's defaults (privval/signer_*.go, node/node.go). */
export const V034_LISTENER_TIMING = {
  acceptTimeoutMs: 3000,
  readWriteTimeoutMs: 5000,
  /** 2/3 of the read/write timeout. */
  pingIntervalMs: 3333,
  retries: 50,
  retryWaitMs: 100,
} as const;

export type ListenerInput =
  | { type: "Tick"; now: number }
  | { type: "Accepted"; now: number; connId: number; remote: string }
  | { type: "Closed"; now: number; connId: number; reason: string }
  | { type: "Received"; now: number; connId: number; message: Message }
  | { type: "BadFrame"; now: number; connId: number; reason: string }
  | { type: "Written"; now: number; connId: number }
  | { type: "Requested"; now: number; id: number; what: string; message: Message }
  | { type: "Stop"; now: number };

export type LogLevel = "debug" | "info" | "warn" | "error";

export type ListenerEffect =
  | { type: "Write"; connId: number; message: Message }
  | { type: "Close"; connId: number; reason: string }
  /** The answer to request `id` (it may carry the signer's error: the driver reads it). */
  | { type: "Resolve"; id: number; message: Message }
  | { type: "Reject"; id: number; code: RemoteSignerErrorCode; reason: string }
  /** The first connection told its key: the node's signer key for this run. */
  | { type: "KeyLearnt"; publicKey: Uint8Array }
  /** The first connection refused to tell its key (a wrong chain ID): the start cannot go on. */
  | { type: "KeyRefused"; code: RemoteSignerErrorCode; reason: string }
  | { type: "Log"; level: LogLevel; msg: string; fields: Record<string, string | number> };

type Purpose = "verify-key" | "ping" | "request";

interface Exchange {
  purpose: Purpose;
  phase: "writing" | "reading";
  deadline: number;
}

interface Connection {
  id: number;
  remote: string;
  verified: boolean;
  exchange: Exchange | undefined;
  idleSince: number;
}

interface PendingRequest {
  id: number;
  what: string;
  message: Message;
  /** Failed attempts so far. */
  failures: number;
  firstAt: number;
  lastError: string | undefined;
  /** While waiting for a usable connection: when this attempt gives up (accept timeout). */
  waitUntil: number | undefined;
  /** After a failed attempt: when the next one starts. */
  retryAt: number | undefined;
  sent: boolean;
}

export interface ListenerState {
  readonly config: ListenerConfig;
  readonly now: number;
  readonly stopped: boolean;
  readonly conn: Connection | undefined;
  /** The signer's key, from the first verified connection. */
  readonly publicKey: Uint8Array | undefined;
  readonly queue: readonly PendingRequest[];
  /** Since when no verified connection is up (for the waiting messages). */
  readonly unconnectedSince: number | undefined;
  readonly nextWaitLogAt: number | undefined;
}

export function initialListenerState(config: ListenerConfig, now: number): ListenerState {
  return {
    config,
    now,
    stopped: false,
    conn: undefined,
    publicKey: undefined,
    queue: [],
    unconnectedSince: now,
    nextWaitLogAt: now + config.acceptTimeoutMs,
  };
}

/** When the driver must deliver the next Tick (undefined: nothing is timed). */
export function listenerWakeAt(s: ListenerState): number | undefined {
  if (s.stopped) return undefined;
  const times: number[] = [];
  if (s.conn?.exchange) times.push(s.conn.exchange.deadline);
  else if (s.conn?.verified) times.push(s.conn.idleSince + s.config.pingIntervalMs);
  const head = s.queue[0];
  if (head?.waitUntil !== undefined) times.push(head.waitUntil);
  if (head?.retryAt !== undefined) times.push(head.retryAt);
  if (s.nextWaitLogAt !== undefined) times.push(s.nextWaitLogAt);
  return times.length ? Math.min(...times) : undefined;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Draft = Mutable<ListenerState> & { queue: PendingRequest[] };

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

export function listenerReducer(
  state: ListenerState,
  input: ListenerInput,
): { state: ListenerState; effects: ListenerEffect[] } {
  const s: Draft = {
    ...state,
    now: Math.max(state.now, input.now),
    conn: state.conn ? { ...state.conn } : undefined,
    queue: state.queue.map((r) => ({ ...r })),
  };
  const fx: ListenerEffect[] = [];
  if (s.stopped) {
    if (input.type === "Accepted") fx.push({ type: "Close", connId: input.connId, reason: "stopping" });
    if (input.type === "Requested")
      fx.push({
        type: "Reject",
        id: input.id,
        code: "PRIVVAL_REMOTE_STOPPED",
        reason: "the node is stopping",
      });
    return { state: s, effects: fx };
  }
  const log = (level: LogLevel, msg: string, fields: Record<string, string | number> = {}) =>
    fx.push({ type: "Log", level, msg, fields: { address: s.config.address, ...fields } });

  const write = (purpose: Purpose, message: Message) => {
    const conn = s.conn!;
    conn.exchange = { purpose, phase: "writing", deadline: s.now + s.config.readWriteTimeoutMs };
    fx.push({ type: "Write", connId: conn.id, message });
  };

  /** Sends the head request when a verified, idle connection is there. */
  const pump = () => {
    const head = s.queue[0];
    if (!head || head.sent || head.retryAt !== undefined) return;
    if (s.conn?.verified && !s.conn.exchange) {
      head.sent = true;
      head.waitUntil = undefined;
      write("request", head.message);
    } else if (head.waitUntil === undefined) {
      head.waitUntil = s.now + s.config.acceptTimeoutMs;
    }
  };

  const attemptFailed = (reason: string) => {
    const head = s.queue[0];
    if (!head) return;
    head.failures++;
    head.lastError = reason;
    head.sent = false;
    head.waitUntil = undefined;
    if (head.failures >= s.config.retries) {
      s.queue.shift();
      fx.push({
        type: "Reject",
        id: head.id,
        code: "PRIVVAL_REMOTE_UNAVAILABLE",
        reason:
          `remote signer at ${s.config.address} did not answer the ${head.what} after ${head.failures} attempts ` +
          `over ${seconds(s.now - head.firstAt)} (each waits up to ${seconds(s.config.acceptTimeoutMs)} for the signer ` +
          `to connect, ${s.config.retryWaitMs} ms apart); last error: ${reason}`,
      });
      pump();
      return;
    }
    head.retryAt = s.now + s.config.retryWaitMs;
  };

  const dropConnection = (reason: string, close: boolean) => {
    const conn = s.conn!;
    if (close) fx.push({ type: "Close", connId: conn.id, reason });
    const wasRequest = conn.exchange?.purpose === "request";
    s.conn = undefined;
    s.unconnectedSince = s.now;
    s.nextWaitLogAt = s.now + s.config.acceptTimeoutMs;
    log("warn", "lost the remote signer; waiting for it to dial in again", { reason, remote: conn.remote });
    if (wasRequest) attemptFailed(reason);
    pump();
  };

  switch (input.type) {
    case "Requested": {
      s.queue.push({
        id: input.id,
        what: input.what,
        message: input.message,
        failures: 0,
        firstAt: s.now,
        lastError: undefined,
        waitUntil: undefined,
        retryAt: undefined,
        sent: false,
      });
      pump();
      break;
    }
    case "Accepted": {
      if (s.conn) {
        fx.push({
          type: "Close",
          connId: input.connId,
          reason: `a remote signer (${s.conn.remote}) is already connected`,
        });
        log("warn", "closed a second remote signer connection: one is already in use", {
          remote: input.remote,
          inUse: s.conn.remote,
        });
        break;
      }
      s.conn = {
        id: input.connId,
        remote: input.remote,
        verified: false,
        exchange: undefined,
        idleSince: s.now,
      };
      log("info", "remote signer connected; asking its public key", { remote: input.remote });
      write("verify-key", pubKeyRequest(s.config.chainId));
      break;
    }
    case "Written": {
      const ex = s.conn?.id === input.connId ? s.conn.exchange : undefined;
      if (ex?.phase === "writing") {
        ex.phase = "reading";
        ex.deadline = s.now + s.config.readWriteTimeoutMs;
      }
      break;
    }
    case "Closed": {
      if (s.conn?.id === input.connId) dropConnection(input.reason, false);
      break;
    }
    case "BadFrame": {
      if (s.conn?.id === input.connId) dropConnection(input.reason, true);
      break;
    }
    case "Received": {
      const conn = s.conn;
      if (conn?.id !== input.connId) break;
      const ex = conn.exchange;
      const got = messageName(input.message);
      if (!ex) {
        dropConnection(`the signer sent ${got} when nothing was asked`, true);
        break;
      }
      const askedCase =
        ex.purpose === "verify-key" ? "pubKeyRequest" : ex.purpose === "ping" ? "pingRequest" : undefined;
      const expected = expectedResponseCase(askedCase ?? s.queue[0]?.message.sum?.$case ?? "pingRequest");
      if (input.message.sum?.$case !== expected) {
        dropConnection(`the signer answered ${got} where ${expected} was expected`, true);
        break;
      }
      conn.exchange = undefined;
      conn.idleSince = s.now;
      if (ex.purpose === "request") {
        const head = s.queue.shift()!;
        fx.push({ type: "Resolve", id: head.id, message: input.message });
      } else if (ex.purpose === "verify-key") {
        verifyKey(input.message, conn);
      }
      pump();
      break;
    }
    case "Tick": {
      const conn = s.conn;
      if (conn?.exchange && s.now >= conn.exchange.deadline) {
        const ex = conn.exchange;
        const what =
          ex.purpose === "ping" ? "ping" : ex.purpose === "verify-key" ? "public key request" : "request";
        dropConnection(
          ex.phase === "writing"
            ? `write of the ${what} timed out after ${seconds(s.config.readWriteTimeoutMs)}`
            : `no answer to the ${what} within ${seconds(s.config.readWriteTimeoutMs)} (read timeout)`,
          true,
        );
      } else if (conn?.verified && !conn.exchange && s.now >= conn.idleSince + s.config.pingIntervalMs) {
        write("ping", pingRequest());
      }
      const head = s.queue[0];
      if (head?.waitUntil !== undefined && s.now >= head.waitUntil) {
        attemptFailed(
          `no remote signer connected within ${seconds(s.config.acceptTimeoutMs)} (accept timeout)`,
        );
      }
      const next = s.queue[0];
      if (next?.retryAt !== undefined && s.now >= next.retryAt) {
        next.retryAt = undefined;
        pump();
      }
      if (s.nextWaitLogAt !== undefined && s.now >= s.nextWaitLogAt) {
        if (s.conn?.verified) s.nextWaitLogAt = undefined;
        else {
          const waited = s.now - (s.unconnectedSince ?? s.now);
          log(
            s.publicKey ? "error" : "warn",
            s.publicKey
              ? "no remote signer connected: the node cannot sign until one dials in"
              : "waiting for a remote signer to dial in (priv_validator_laddr)",
            { waited: seconds(waited), ...(s.queue[0] ? { pending: s.queue[0].what } : {}) },
          );
          s.nextWaitLogAt = s.now + Math.min(30_000, Math.max(s.config.acceptTimeoutMs, waited));
        }
      }
      break;
    }
    case "Stop": {
      s.stopped = true;
      if (s.conn) fx.push({ type: "Close", connId: s.conn.id, reason: "the node is stopping" });
      s.conn = undefined;
      for (const r of s.queue)
        fx.push({ type: "Reject", id: r.id, code: "PRIVVAL_REMOTE_STOPPED", reason: "the node is stopping" });
      s.queue = [];
      s.nextWaitLogAt = undefined;
      break;
    }
  }
  return { state: s, effects: fx };

  function verifyKey(message: Message, conn: Connection): void {
    const response = message.sum?.$case === "pubKeyResponse" ? message.sum.pubKeyResponse : undefined;
    const key = response?.pubKey.sum?.$case === "ed25519" ? response.pubKey.sum.ed25519 : undefined;
    let problem: { code: RemoteSignerErrorCode; reason: string } | undefined;
    if (response?.error) {
      problem = {
        code: /chain/i.test(response.error.description) ? "PRIVVAL_WRONG_CHAIN_ID" : "PRIVVAL_REMOTE_REFUSED",
        reason:
          `the remote signer at ${s.config.address} refused to give its public key for chain ` +
          `${JSON.stringify(s.config.chainId)}: ${response.error.description} (error #${response.error.code})`,
      };
    } else if (key === undefined || key.length !== 32) {
      problem = {
        code: "PRIVVAL_REMOTE_BAD_RESPONSE",
        reason: `the remote signer at ${s.config.address} answered without an ed25519 public key of 32 bytes`,
      };
    } else if (s.publicKey && !Buffer.from(s.publicKey).equals(Buffer.from(key))) {
      problem = {
        code: "PRIVVAL_REMOTE_WRONG_KEY",
        reason:
          `the signer that dialled in at ${s.config.address} answers with public key ${hex(key)}, but this node ` +
          `signs with ${hex(s.publicKey)} (the key of its first signer); closing the connection`,
      };
    }
    if (problem) {
      log("error", problem.reason, { code: problem.code });
      if (!s.publicKey) fx.push({ type: "KeyRefused", ...problem });
      dropConnection(problem.reason, true);
      return;
    }
    conn.verified = true;
    s.unconnectedSince = undefined;
    s.nextWaitLogAt = undefined;
    if (!s.publicKey) {
      s.publicKey = key;
      fx.push({ type: "KeyLearnt", publicKey: key! });
    }
    log("info", "remote signer ready", { pubKey: hex(key!), remote: conn.remote });
  }
}
