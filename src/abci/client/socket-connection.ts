// One ABCI connection over a socket: requests are framed and written in call order, responses are
// matched to them strictly in order. Requests made in the same tick are written as one buffer
// followed by one Flush, so a burst of calls costs one write and one round trip (pipelining); a
// lone awaited call costs one round trip of its own. Any protocol fault ends the connection: every
// pending and later call fails with the same error, which names the connection.
import type { Socket } from "node:net";
import {
  type Request,
  Request as RequestCodec,
  Response,
} from "../../wire/generated/tendermint/abci/types.js";
import { AbciError } from "../errors.js";
import { encodeLengthPrefix, FrameDecoder, MAX_ABCI_MESSAGE_SIZE } from "../framing.js";
import type { ConnectionName } from "./abci-client.js";

type ResponseCase = NonNullable<Response["value"]>["$case"];
type RequestCase = NonNullable<Request["value"]>["$case"];

interface Pending {
  expect: ResponseCase;
  resolve(value: unknown): void;
  reject(error: AbciError): void;
}

export interface SocketConnectionOptions {
  /** Most calls waiting for an answer; beyond it a call fails with ABCI_QUEUE_FULL. */
  maxPending?: number;
  maxMessageSize?: number;
}

const FLUSH_FRAME = Buffer.from([0x04, 0x12, 0x00]);

/** Short printable view of bytes that did not make sense, for error messages. */
function preview(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.subarray(0, 32)).toString("hex");
  return bytes.length > 32 ? `${hex}… (${bytes.length} bytes)` : `${hex} (${bytes.length} bytes)`;
}

export class SocketConnection {
  private readonly pending: Pending[] = [];
  /** Index of the first unanswered entry in `pending` (shifting an array per answer is O(n)). */
  private head = 0;
  private outgoing: Uint8Array[] = [];
  private flushScheduled = false;
  private readonly decoder: FrameDecoder;
  private readonly maxPending: number;
  private failure: AbciError | undefined;
  private closing = false;
  private readonly failureListeners: ((e: AbciError) => void)[] = [];

  constructor(
    readonly name: ConnectionName,
    private readonly socket: Socket,
    options: SocketConnectionOptions = {},
  ) {
    this.maxPending = options.maxPending ?? 1_000_000;
    this.decoder = new FrameDecoder(options.maxMessageSize ?? MAX_ABCI_MESSAGE_SIZE, name);
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", (err) =>
      this.fail(
        new AbciError("ABCI_CONNECTION_CLOSED", `socket error: ${err.message}`, name, { cause: err }),
      ),
    );
    socket.on("close", () =>
      this.fail(
        new AbciError(
          "ABCI_CONNECTION_CLOSED",
          `the app closed the connection with ${this.inFlight} request(s) unanswered` +
            (this.decoder.buffered > 0 ? ` and ${this.decoder.buffered} byte(s) of a truncated message` : ""),
          name,
        ),
      ),
    );
  }

  get error(): AbciError | undefined {
    return this.failure;
  }

  /** Calls waiting for an answer. */
  get inFlight(): number {
    return this.pending.length - this.head;
  }

  onFailure(listener: (e: AbciError) => void): void {
    this.failureListeners.push(listener);
  }

  /** Sends one request; resolves with the response's payload of the matching type. */
  call<T>(request: Request, expect: ResponseCase): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.inFlight >= this.maxPending) {
      return Promise.reject(
        new AbciError("ABCI_QUEUE_FULL", `${this.inFlight} requests already wait for the app`, this.name),
      );
    }
    // Encoded before it is queued: a request that fails to encode must not leave a pending entry
    // behind, or every later answer would be matched to the wrong call.
    let body: Uint8Array;
    try {
      body = RequestCodec.encode(request).finish();
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ expect, resolve: resolve as (v: unknown) => void, reject });
      this.outgoing.push(encodeLengthPrefix(body.length), body);
      this.scheduleFlush();
    });
  }

  /** Resolves when the app has answered everything sent before. */
  flush(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ expect: "flush", resolve: () => resolve(), reject });
      this.outgoing.push(FLUSH_FRAME);
      this.writeOut();
    });
  }

  /** Ends the connection on purpose: pending calls fail, failure listeners are not told. */
  close(): void {
    this.closing = true;
    this.fail(new AbciError("ABCI_CONNECTION_CLOSED", "closed by the node", this.name));
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // After the current tick's calls: one write and one Flush for the whole burst.
    queueMicrotask(() => {
      this.flushScheduled = false;
      if (this.failure || this.outgoing.length === 0) return;
      this.pending.push({ expect: "flush", resolve: () => {}, reject: () => {} });
      this.outgoing.push(FLUSH_FRAME);
      this.writeOut();
    });
  }

  private writeOut(): void {
    if (this.outgoing.length === 0) return;
    const data = this.outgoing.length === 1 ? this.outgoing[0]! : Buffer.concat(this.outgoing);
    this.outgoing = [];
    this.socket.write(data);
  }

  private onData(chunk: Buffer): void {
    if (this.failure) return;
    let frames: Uint8Array[];
    try {
      frames = this.decoder.push(chunk);
    } catch (err) {
      this.fail(
        err instanceof AbciError ? err : new AbciError("ABCI_MALFORMED_RESPONSE", String(err), this.name),
      );
      return;
    }
    for (const frame of frames) {
      if (this.failure) return;
      this.onFrame(frame);
    }
  }

  private onFrame(frame: Uint8Array): void {
    let response: Response;
    try {
      response = Response.decode(frame);
    } catch (err) {
      this.fail(
        new AbciError(
          "ABCI_MALFORMED_RESPONSE",
          `undecodable response ${preview(frame)}: ${(err as Error).message}`,
          this.name,
        ),
      );
      return;
    }
    const value = response.value;
    const waiting = this.pending[this.head];
    if (value === undefined) {
      this.fail(
        new AbciError("ABCI_MALFORMED_RESPONSE", `response without a value: ${preview(frame)}`, this.name),
      );
      return;
    }
    if (value.$case === "exception") {
      const what = waiting ? ` to ${waiting.expect}` : "";
      this.fail(
        new AbciError(
          "ABCI_EXCEPTION",
          `app answered${what} with exception: ${value.exception.error}`,
          this.name,
        ),
      );
      return;
    }
    if (waiting === undefined) {
      this.fail(
        new AbciError(
          "ABCI_UNEXPECTED_RESPONSE",
          `unsolicited ${value.$case} response, no request pending`,
          this.name,
        ),
      );
      return;
    }
    if (value.$case !== waiting.expect) {
      this.fail(
        new AbciError(
          "ABCI_UNEXPECTED_RESPONSE",
          `expected a ${waiting.expect} response, received ${value.$case}`,
          this.name,
        ),
      );
      return;
    }
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.pending.length) {
      this.pending.splice(0, this.head);
      this.head = 0;
    }
    waiting.resolve((value as Record<string, unknown>)[value.$case]);
  }

  private fail(error: AbciError): void {
    if (this.failure) return;
    this.failure = error;
    const waiting = this.pending.slice(this.head);
    this.pending.length = 0;
    this.head = 0;
    this.outgoing = [];
    for (const p of waiting) p.reject(error);
    this.socket.destroy();
    if (this.closing) return;
    for (const listener of this.failureListeners) listener(error);
  }
}

export type { RequestCase, ResponseCase };
