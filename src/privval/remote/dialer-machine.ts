// The signer's end of the remote signer (v0.34's SignerDialerEndpoint and SignerServer) as a pure
// reducer over time-stamped inputs; the driver (signer-server.ts) owns the socket, the timer and
// the file signer. The rules:
//
// - Dial the node; a failed dial is retried `retryWaitMs` (100 ms) later, up to `maxQuickRetries`
//   (10) times as v0.34 does, and then every `slowRetryMs` (1 s) for as long as the signer runs
//   (v0.34's server gives up instead; a signer that outlives a node restart is what operators
//   expect), with a warning when the quick retries are spent and every 30 s after.
// - Connected, wait for a request at most the read/write timeout (5 s; the node pings every
//   3.3 s): a silent node is dropped and dialled again. Requests are handled one at a time, in
//   order; the answer must be written within the read/write timeout.
// - A lost connection is dialled again at once. An answer computed for a connection that is gone
//   is dropped: the node asks again, and the signer's state file answers the same request with
//   the same signature.

import type { Message } from "../../wire/generated/tendermint/privval/types.js";
import type { LogLevel } from "./listener-machine.js";
import { messageName } from "./messages.js";

export interface DialerConfig {
  /** The node's address, for messages. */
  address: string;
  readWriteTimeoutMs: number;
  retryWaitMs: number;
  maxQuickRetries: number;
  slowRetryMs: number;
  /** Requests read ahead of the one being handled; more is a misbehaving node. */
  maxBacklog: number;
}

export const V034_DIALER_TIMING = {
  readWriteTimeoutMs: 5000,
  retryWaitMs: 100,
  maxQuickRetries: 10,
  slowRetryMs: 1000,
  maxBacklog: 8,
} as const;

export type DialerInput =
  | { type: "Start"; now: number }
  | { type: "Tick"; now: number }
  | { type: "Dialled"; now: number; connId: number }
  | { type: "DialFailed"; now: number; reason: string }
  | { type: "Received"; now: number; connId: number; message: Message }
  | { type: "BadFrame"; now: number; connId: number; reason: string }
  | { type: "Closed"; now: number; connId: number; reason: string }
  | { type: "Handled"; now: number; connId: number; response: Message }
  | { type: "Written"; now: number; connId: number }
  | { type: "Stop"; now: number };

export type DialerEffect =
  | { type: "Dial" }
  | { type: "Write"; connId: number; message: Message }
  /** Answer `message` (the driver runs the request handler and comes back with Handled). */
  | { type: "Handle"; connId: number; message: Message }
  | { type: "Close"; connId: number; reason: string }
  | { type: "Log"; level: LogLevel; msg: string; fields: Record<string, string | number> };

export interface DialerState {
  readonly config: DialerConfig;
  readonly now: number;
  readonly phase: "idle" | "dialling" | "waiting" | "connected" | "stopped";
  readonly connId: number | undefined;
  readonly failures: number;
  readonly retryAt: number | undefined;
  readonly readDeadline: number | undefined;
  readonly writeDeadline: number | undefined;
  readonly handling: boolean;
  readonly backlog: readonly Message[];
  readonly nextFailureLogAt: number | undefined;
  /** Connections made so far (the first one is logged differently from a reconnection). */
  readonly connections: number;
}

export function initialDialerState(config: DialerConfig, now: number): DialerState {
  return {
    config,
    now,
    phase: "idle",
    connId: undefined,
    failures: 0,
    retryAt: undefined,
    readDeadline: undefined,
    writeDeadline: undefined,
    handling: false,
    backlog: [],
    nextFailureLogAt: undefined,
    connections: 0,
  };
}

export function dialerWakeAt(s: DialerState): number | undefined {
  const times = [s.retryAt, s.readDeadline, s.writeDeadline].filter((t): t is number => t !== undefined);
  return s.phase === "stopped" || times.length === 0 ? undefined : Math.min(...times);
}

type Draft = { -readonly [K in keyof DialerState]: DialerState[K] } & { backlog: Message[] };

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

export function dialerReducer(
  state: DialerState,
  input: DialerInput,
): { state: DialerState; effects: DialerEffect[] } {
  const s: Draft = { ...state, now: Math.max(state.now, input.now), backlog: [...state.backlog] };
  const fx: DialerEffect[] = [];
  if (s.phase === "stopped") return { state: s, effects: fx };
  const log = (level: LogLevel, msg: string, fields: Record<string, string | number> = {}) =>
    fx.push({ type: "Log", level, msg, fields: { node: s.config.address, ...fields } });
  const current = (connId: number) => s.phase === "connected" && s.connId === connId;

  const dial = () => {
    s.phase = "dialling";
    s.retryAt = undefined;
    fx.push({ type: "Dial" });
  };
  const disconnect = (reason: string, close: boolean) => {
    if (close && s.connId !== undefined) fx.push({ type: "Close", connId: s.connId, reason });
    log("warn", "lost the connection to the node; dialling again", { reason });
    s.connId = undefined;
    s.readDeadline = undefined;
    s.writeDeadline = undefined;
    s.handling = false;
    s.backlog = [];
    dial();
  };
  const handleNext = () => {
    const next = s.backlog.shift();
    if (next === undefined) {
      s.readDeadline = s.now + s.config.readWriteTimeoutMs;
      return;
    }
    s.handling = true;
    s.readDeadline = undefined;
    fx.push({ type: "Handle", connId: s.connId!, message: next });
  };

  switch (input.type) {
    case "Start":
      if (s.phase === "idle") {
        log("info", "dialling the node");
        dial();
      }
      break;
    case "Dialled": {
      if (s.phase !== "dialling") {
        fx.push({ type: "Close", connId: input.connId, reason: "not dialling" });
        break;
      }
      s.phase = "connected";
      s.connId = input.connId;
      s.connections++;
      log("info", s.connections === 1 ? "connected to the node" : "reconnected to the node", {
        ...(s.failures > 0 ? { failedDials: s.failures } : {}),
      });
      s.failures = 0;
      s.nextFailureLogAt = undefined;
      s.readDeadline = s.now + s.config.readWriteTimeoutMs;
      break;
    }
    case "DialFailed": {
      if (s.phase !== "dialling") break;
      s.failures++;
      const quick = s.failures < s.config.maxQuickRetries;
      s.phase = "waiting";
      s.retryAt = s.now + (quick ? s.config.retryWaitMs : s.config.slowRetryMs);
      if (
        s.failures === s.config.maxQuickRetries ||
        (s.nextFailureLogAt !== undefined && s.now >= s.nextFailureLogAt)
      ) {
        log("warn", `the node does not answer; dialling again every ${seconds(s.config.slowRetryMs)}`, {
          failedDials: s.failures,
          err: input.reason,
        });
        s.nextFailureLogAt = s.now + 30_000;
      } else {
        log("debug", "dial failed", { failedDials: s.failures, err: input.reason });
      }
      break;
    }
    case "Received": {
      if (!current(input.connId)) break;
      if (s.backlog.length >= s.config.maxBacklog) {
        disconnect(
          `the node sent more than ${s.config.maxBacklog} requests without waiting for answers`,
          true,
        );
        break;
      }
      s.backlog.push(input.message);
      if (!s.handling && s.writeDeadline === undefined) handleNext();
      break;
    }
    case "Handled": {
      if (!current(input.connId)) {
        log("info", "answer dropped: its connection is gone (the node asks again)", {
          answer: messageName(input.response),
        });
        break;
      }
      s.handling = false;
      s.writeDeadline = s.now + s.config.readWriteTimeoutMs;
      fx.push({ type: "Write", connId: input.connId, message: input.response });
      break;
    }
    case "Written": {
      if (!current(input.connId) || s.writeDeadline === undefined) break;
      s.writeDeadline = undefined;
      handleNext();
      break;
    }
    case "BadFrame":
      if (current(input.connId)) disconnect(input.reason, true);
      break;
    case "Closed":
      if (current(input.connId)) disconnect(input.reason, false);
      break;
    case "Tick": {
      if (s.phase === "waiting" && s.retryAt !== undefined && s.now >= s.retryAt) dial();
      else if (s.phase === "connected") {
        if (s.writeDeadline !== undefined && s.now >= s.writeDeadline)
          disconnect(`write of the answer timed out after ${seconds(s.config.readWriteTimeoutMs)}`, true);
        else if (s.readDeadline !== undefined && s.now >= s.readDeadline)
          disconnect(
            `no request from the node within ${seconds(s.config.readWriteTimeoutMs)} (read timeout)`,
            true,
          );
      }
      break;
    }
    case "Stop":
      if (s.phase === "connected" && s.connId !== undefined)
        fx.push({ type: "Close", connId: s.connId, reason: "the signer is stopping" });
      s.phase = "stopped";
      s.connId = undefined;
      s.retryAt = undefined;
      s.readDeadline = undefined;
      s.writeDeadline = undefined;
      s.backlog = [];
      break;
  }
  return { state: s, effects: fx };
}
