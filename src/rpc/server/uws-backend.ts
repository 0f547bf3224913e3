// The uWebSockets.js backend (DESIGN §5): HTTP, HTTPS, WS and WSS on one listener. uWS has no
// hook on accepted connections, so max_open_connections bounds requests in flight plus open
// WebSockets, answering 503 beyond it. Bodies are read in chunks up to max_body_bytes.

import type * as Uws from "uWebSockets.js";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { RpcError } from "../errors.js";
import type { ListenAddress } from "../options.js";
import { type HttpAnswer, type HttpCall, PLAIN_GET, statusLine, WEBSOCKET_PATH } from "./http-front.js";
import type { ServerCore } from "./server-core.js";
import type { WebSocketSession } from "./websocket-session.js";

type UwsModule = typeof Uws;

/**
 * Headers uWS itself accepts (measured: ~100 KB pass, 140 KB reset the connection). Below
 * this, max_header_bytes is checked here; above it, uWS's own fixed buffer is the limit.
 */
export const UWS_HEADER_CEILING = 100_000;

/**
 * The native uWS module, or the reason it does not load. The package's own JS fallback is
 * skipped on purpose: node:http is our fallback, with a log line saying so.
 */
export function loadUws(): { uws: UwsModule } | { reason: string } {
  try {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve("uWebSockets.js/package.json"));
    const binary = join(
      dir,
      "binaries",
      `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`,
    );
    return { uws: require(binary) as UwsModule };
  } catch (error) {
    return { reason: (error as Error).message.split("\n")[0] ?? String(error) };
  }
}

interface SocketData {
  remoteAddress: string;
  /** true once uWS closed the socket or we ended it: it must not be touched after */
  closed: boolean;
  session?: WebSocketSession;
  /** messages given to the socket and not yet written (see OUTBOX_FLUSH_BYTES) */
  outbox: string[];
  outboxBytes: number;
  /**
   * uWS's own backpressure as of the last write or drain: it only falls in between, so it
   * bounds the real figure from above, and the session queue asks for it once per message
   */
  socketBuffered: number;
}

/**
 * Messages to a WebSocket are gathered and written corked (one syscall for many) when the
 * burst that produced them ends (a delivery slice of the hub, or a run of answers), or
 * as soon as this many bytes wait. Written one by one, each message of 3,000 Tx events to a
 * firehose subscriber was its own syscall.
 */
const OUTBOX_FLUSH_BYTES = 64 * 1024;

const EMPTY = "";

function writeAnswer(res: Uws.HttpResponse, answer: HttpAnswer, closeConnection = false, head = false): void {
  res.cork(() => writeCorked(res, answer, closeConnection, head));
}

/**
 * The answer, on a socket already corked: by cork(), or by uWS itself during a handler's own
 * synchronous part. uWS writes "200 OK" when no status was written, so that one is not (each
 * call here crosses into native code, and the short paths answer once per tx).
 */
function writeCorked(res: Uws.HttpResponse, answer: HttpAnswer, closeConnection = false, head = false): void {
  if (answer.status !== 200) res.writeStatus(statusLine(answer.status));
  if (answer.contentType !== EMPTY) res.writeHeader("Content-Type", answer.contentType);
  for (const [name, value] of answer.headers) res.writeHeader(name, value);
  // A HEAD answer announces the body's length and sends none (node:http does this itself).
  if (head) res.endWithoutBody(Buffer.byteLength(answer.body), closeConnection);
  else res.end(answer.bodyBytes ?? answer.body, closeConnection);
}

function text(buffer: ArrayBuffer): string {
  return Buffer.from(buffer).toString("utf8");
}

/** The request line and headers as Go's MaxHeaderBytes counts them, near enough. */
function headerBytes(req: Uws.HttpRequest, call: HttpCall): number {
  let total = call.method.length + call.path.length + call.query.length + 12;
  req.forEach((key, value) => {
    total += key.length + value.length + 4;
  });
  return total;
}

export interface BackendHandle {
  address: string;
  port: number | undefined;
  close(): Promise<void>;
}

export function startUwsBackend(
  uws: UwsModule,
  core: ServerCore,
  address: ListenAddress,
  tls: { certFile: string; keyFile: string } | undefined,
): Promise<BackendHandle> {
  const { options, front, logger } = core;
  const app =
    tls === undefined ? uws.App() : uws.SSLApp({ cert_file_name: tls.certFile, key_file_name: tls.keyFile });
  const maxOpen = options.maxOpenConnections;
  const checkHeaders = options.maxHeaderBytes < UWS_HEADER_CEILING;
  let open = 0;

  const waiting = new Set<Uws.WebSocket<SocketData>>();
  let flushQueued = false;
  const flushSocket = (ws: Uws.WebSocket<SocketData>) => {
    const data = ws.getUserData();
    const box = data.outbox;
    if (box.length === 0) return;
    data.outbox = [];
    data.outboxBytes = 0;
    if (data.closed) return;
    ws.cork(() => {
      for (const message of box) ws.send(message, false);
    });
    data.socketBuffered = ws.getBufferedAmount();
  };
  const flushWaiting = () => {
    flushQueued = false;
    for (const ws of waiting) flushSocket(ws);
    waiting.clear();
  };

  app.ws<SocketData>(WEBSOCKET_PATH, {
    maxPayloadLength: options.maxBodyBytes,
    // uWS pings on its own before the idle timeout, and closes a socket silent for that long.
    idleTimeout: Math.max(8, Math.ceil(options.webSocketReadTimeoutMs / 4000) * 4),
    sendPingsAutomatically: true,
    // Our session queue bounds what waits; uWS must never drop a message on its own.
    maxBackpressure: 1024 * 1024 * 1024,
    compression: uws.DISABLED,
    upgrade: (res, req, context) => {
      const key = req.getHeader("sec-websocket-key");
      const protocol = req.getHeader("sec-websocket-protocol");
      const extensions = req.getHeader("sec-websocket-extensions");
      if (maxOpen > 0 && open >= maxOpen) {
        res.writeStatus(statusLine(503)).end("too many open connections\n", true);
        return;
      }
      const remoteAddress = text(res.getRemoteAddressAsText());
      res.upgrade<SocketData>(
        { remoteAddress, closed: false, outbox: [], outboxBytes: 0, socketBuffered: 0 },
        key,
        protocol,
        extensions,
        context,
      );
    },
    open: (ws) => {
      open++;
      const data = ws.getUserData();
      data.session = core.openSession(data.remoteAddress, {
        send: (message) => {
          if (data.closed) return;
          data.outbox.push(message);
          // UTF-16 length: near enough for a flush threshold
          data.outboxBytes += message.length;
          if (data.outboxBytes >= OUTBOX_FLUSH_BYTES) {
            waiting.delete(ws);
            flushSocket(ws);
            return;
          }
          waiting.add(ws);
          if (!flushQueued) {
            flushQueued = true;
            queueMicrotask(flushWaiting);
          }
        },
        bufferedAmount: () => (data.closed ? 0 : data.socketBuffered + data.outboxBytes),
        close: (code, reason) => {
          if (data.closed) return;
          // what was sent before the close (a cancellation notice) goes out first
          waiting.delete(ws);
          flushSocket(ws);
          data.closed = true;
          ws.end(code, reason);
        },
      });
    },
    message: (ws, message) => {
      ws.getUserData().session?.onMessage(text(message));
    },
    drain: (ws) => {
      const data = ws.getUserData();
      data.socketBuffered = ws.getBufferedAmount();
      data.session?.onDrain();
    },
    close: (ws) => {
      open--;
      const data = ws.getUserData();
      data.closed = true;
      data.outbox = [];
      data.outboxBytes = 0;
      waiting.delete(ws);
      const session = data.session;
      if (session !== undefined) core.closeSession(session);
    },
  });

  const cors = front.corsEnabled;
  const general = (res: Uws.HttpResponse, req: Uws.HttpRequest) => {
    const call: HttpCall = {
      method: req.getCaseSensitiveMethod().toUpperCase(),
      path: req.getUrl(),
      query: req.getQuery() ?? EMPTY,
      contentType: req.getHeader("content-type"),
      origin: cors ? req.getHeader("origin") : EMPTY,
      corsRequestMethod: cors ? req.getHeader("access-control-request-method") : EMPTY,
      corsRequestHeaders: cors ? req.getHeader("access-control-request-headers") : EMPTY,
      remoteAddress: EMPTY,
    };
    const contentLength = req.getHeader("content-length");
    const hasBody =
      (contentLength !== EMPTY && contentLength !== "0") || req.getHeader("transfer-encoding") !== EMPTY;
    if (maxOpen > 0 && open >= maxOpen) {
      writeAnswer(res, front.overloaded(call), true);
      return;
    }
    if (checkHeaders && headerBytes(req, call) > options.maxHeaderBytes) {
      writeAnswer(res, front.headersTooLarge(call), true);
      return;
    }
    call.remoteAddress = text(res.getRemoteAddressAsText());
    // `done`: answered or aborted; uWS forbids touching `res` after either.
    let done = false;
    open++;
    res.onAborted(() => {
      if (!done) open--;
      done = true;
    });
    const finish = (answer: HttpAnswer, closeConnection = false) => {
      if (done) return;
      done = true;
      open--;
      writeAnswer(res, answer, closeConnection, call.method === "HEAD");
    };
    const respond = (body: string) => {
      let answer: HttpAnswer | Promise<HttpAnswer>;
      try {
        answer = front.answer(call, body);
      } catch (error) {
        logger.error("rpc request failed unexpectedly", { path: call.path, err: String(error) });
        finish(front.notFound(call));
        return;
      }
      if (answer instanceof Promise) {
        answer.then(finish, (error: unknown) => {
          logger.error("rpc request failed unexpectedly", { path: call.path, err: String(error) });
          finish(front.notFound(call));
        });
      } else {
        finish(answer);
      }
    };
    if (!hasBody || !front.wantsBody(call)) {
      respond(EMPTY);
      return;
    }
    if (contentLength !== EMPTY && Number(contentLength) > options.maxBodyBytes) {
      finish(front.bodyTooLarge(call), true);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > options.maxBodyBytes) {
        finish(front.bodyTooLarge(call), true);
        return;
      }
      if (isLast && chunks.length === 0) {
        // The usual case, a body in one chunk: decoding copies it, nothing else needed.
        respond(Buffer.from(chunk).toString("utf8"));
        return;
      }
      // uWS reuses the chunk's memory after the callback: copy it.
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) respond(Buffer.concat(chunks).toString("utf8"));
    });
  };

  // The short paths. Polled routes (health, status): a plain GET is answered from the
  // route's reused response text with four calls into uWS (measured: reading the request's
  // headers, remote address and registering onAborted cost as much as the whole bare answer).
  // Anything unusual (a body, a full server, header limits to check) takes the general path.
  /** Whether a short path must leave the request to the general one (a body, a full server). */
  const unusual = (req: Uws.HttpRequest): boolean => {
    if (maxOpen > 0 && open >= maxOpen) return true;
    const contentLength = req.getHeader("content-length");
    return (contentLength !== EMPTY && contentLength !== "0") || req.getHeader("transfer-encoding") !== EMPTY;
  };
  /** A short path's answer, written now or once its promise settles (counted as open till then). */
  const writeShort = (res: Uws.HttpResponse, answer: HttpAnswer | Promise<HttpAnswer>, path: string) => {
    if (!(answer instanceof Promise)) {
      // Still inside the handler: uWS has corked the socket.
      writeCorked(res, answer);
      return;
    }
    let done = false;
    open++;
    res.onAborted(() => {
      if (!done) open--;
      done = true;
    });
    const finish = (ready: HttpAnswer) => {
      if (done) return;
      done = true;
      open--;
      writeAnswer(res, ready);
    };
    answer.then(finish, (error: unknown) => {
      logger.error("rpc request failed unexpectedly", { path, err: String(error) });
      finish(front.notFound(PLAIN_GET));
    });
  };
  if (!checkHeaders) {
    for (const route of front.polledRoutes) {
      const path = `/${route.name}`;
      app.get(path, (res, req) => {
        if (unusual(req)) return general(res, req);
        // A promise while the projection is being rebuilt (a new height).
        writeShort(res, front.answerPolled(route), path);
      });
    }
    // The per-tx short path (broadcast_tx_async, _sync by URI): in a CPU profile under wrk the
    // general handler's own time (reading headers and remote address, the call object, closures)
    // was 3 % of the main thread, a quarter of the whole request's 11.6 %. Any other query shape
    // takes the general path.
    for (const route of front.perTxRoutes) {
      const path = `/${route.name}`;
      app.get(path, (res, req) => {
        if (unusual(req)) return general(res, req);
        const answer = front.answerPerTx(route, req.getQuery() ?? EMPTY);
        if (answer === undefined) return general(res, req);
        writeShort(res, answer, path);
      });
    }
  }
  app.any("/*", general);

  return new Promise((resolve, reject) => {
    const listening = (socket: Uws.us_listen_socket | false) => {
      if (socket === false) {
        reject(new RpcError("RPC_LISTEN_FAILED", `could not listen on ${options.laddr}`));
        return;
      }
      const port =
        address.kind === "tcp" ? uws.us_socket_local_port(socket as unknown as Uws.us_socket) : undefined;
      const shown =
        address.kind === "tcp"
          ? `tcp://${address.host.includes(":") ? `[${address.host}]` : address.host}:${port}`
          : `unix://${address.path}`;
      resolve({
        address: shown,
        port,
        close: async () => {
          core.shutdown();
          uws.us_listen_socket_close(socket);
          (app as unknown as { close(): void }).close();
          // uWS leaves its socket file behind; node:http removes it, so do the same.
          if (address.kind === "unix") rmSync(address.path, { force: true });
        },
      });
    };
    if (address.kind === "tcp") app.listen(address.host, address.port, listening);
    else app.listen_unix(listening, address.path);
  });
}
