// The node:http (+ ws) backend, used when the uWS binary does not load, or when asked for.
// max_open_connections is node's maxConnections (sockets beyond it are refused), max_header_bytes
// is maxHeaderSize, and request/header timeouts are Tendermint's 10 s.

import { readFileSync } from "node:fs";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { RpcError } from "../errors.js";
import type { ListenAddress } from "../options.js";
import { type HttpAnswer, type HttpCall, WEBSOCKET_PATH } from "./http-front.js";
import type { ServerCore } from "./server-core.js";
import type { BackendHandle } from "./uws-backend.js";

const EMPTY = "";

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? EMPTY) : (value ?? EMPTY);
}

function remoteOf(req: IncomingMessage): string {
  const socket = req.socket;
  return socket.remoteAddress === undefined ? "unix" : `${socket.remoteAddress}:${socket.remotePort}`;
}

function write(res: ServerResponse, answer: HttpAnswer, closeConnection = false): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = {};
  if (answer.contentType !== EMPTY) headers["Content-Type"] = answer.contentType;
  for (const [name, value] of answer.headers) headers[name] = value;
  if (closeConnection) headers.Connection = "close";
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

export function startNodeBackend(
  core: ServerCore,
  address: ListenAddress,
  tls: { certFile: string; keyFile: string } | undefined,
): Promise<BackendHandle> {
  const { options, front, logger } = core;
  const serverOptions = {
    maxHeaderSize: options.maxHeaderBytes,
    requestTimeout: 10_000,
    headersTimeout: 10_000,
  };
  const server: Server =
    tls === undefined
      ? createHttpServer(serverOptions)
      : createHttpsServer({
          ...serverOptions,
          cert: readFileSync(tls.certFile),
          key: readFileSync(tls.keyFile),
        });
  if (options.maxOpenConnections > 0) server.maxConnections = options.maxOpenConnections;

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const call: HttpCall = {
      method: (req.method ?? "GET").toUpperCase(),
      path: q < 0 ? url : url.slice(0, q),
      query: q < 0 ? EMPTY : url.slice(q + 1),
      contentType: header(req, "content-type"),
      origin: header(req, "origin"),
      corsRequestMethod: header(req, "access-control-request-method"),
      corsRequestHeaders: header(req, "access-control-request-headers"),
      remoteAddress: remoteOf(req),
    };
    const respond = (body: string) => {
      let answer: HttpAnswer | Promise<HttpAnswer>;
      try {
        answer = front.answer(call, body);
      } catch (error) {
        logger.error("rpc request failed unexpectedly", { path: call.path, err: String(error) });
        write(res, front.notFound(call));
        return;
      }
      if (answer instanceof Promise) {
        answer.then(
          (a) => write(res, a),
          (error: unknown) => {
            logger.error("rpc request failed unexpectedly", { path: call.path, err: String(error) });
            write(res, front.notFound(call));
          },
        );
      } else {
        write(res, answer);
      }
    };
    const declared = Number(header(req, "content-length") || "0");
    const hasBody = declared > 0 || header(req, "transfer-encoding") !== EMPTY;
    if (!hasBody || !front.wantsBody(call)) {
      req.resume();
      respond(EMPTY);
      return;
    }
    const tooLarge = () => {
      req.pause();
      write(res, front.bodyTooLarge(call), true);
      res.once("finish", () => req.socket.destroy());
    };
    if (declared > options.maxBodyBytes) {
      tooLarge();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > options.maxBodyBytes) {
        over = true;
        tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!over) respond(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", () => res.destroy());
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxBodyBytes,
    perMessageDeflate: false,
  });
  const sockets = new Set<WebSocket>();
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== WEBSOCKET_PATH) {
      socket.end(
        "HTTP/1.1 404 Not Found\r\nContent-Length: 19\r\nConnection: close\r\n\r\n404 page not found\n",
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      const remoteAddress = remoteOf(req);
      let closed = false;
      let lastSeen = Date.now();
      const session = core.openSession(remoteAddress, {
        send: (message) => {
          if (!closed) ws.send(message, () => session.onDrain());
        },
        bufferedAmount: () => (closed ? 0 : ws.bufferedAmount),
        close: (code, reason) => {
          if (closed) return;
          closed = true;
          ws.close(code, reason);
          // A peer that never answers the close handshake is cut after a second.
          setTimeout(() => ws.terminate(), 1000).unref();
        },
      });
      const ping = setInterval(() => {
        if (Date.now() - lastSeen > options.webSocketReadTimeoutMs) {
          ws.terminate();
          return;
        }
        if (!closed) ws.ping();
      }, options.webSocketPingIntervalMs);
      ping.unref();
      ws.on("pong", () => {
        lastSeen = Date.now();
      });
      ws.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => {
        lastSeen = Date.now();
        const text = Array.isArray(data)
          ? Buffer.concat(data).toString("utf8")
          : Buffer.from(data as Buffer).toString("utf8");
        session.onMessage(text);
      });
      ws.on("error", (error) =>
        logger.debug("websocket error", { remote: remoteAddress, err: String(error) }),
      );
      ws.on("close", () => {
        closed = true;
        clearInterval(ping);
        sockets.delete(ws);
        core.closeSession(session);
      });
    });
  });

  return new Promise((resolve, reject) => {
    server.once("error", (error) =>
      reject(new RpcError("RPC_LISTEN_FAILED", `could not listen on ${options.laddr}: ${error.message}`)),
    );
    const onListening = () => {
      const bound = server.address();
      const port = typeof bound === "object" && bound !== null ? bound.port : undefined;
      const shown =
        address.kind === "tcp"
          ? `tcp://${address.host.includes(":") ? `[${address.host}]` : address.host}:${port}`
          : `unix://${address.path}`;
      resolve({
        address: shown,
        port,
        close: () =>
          new Promise<void>((done) => {
            core.shutdown();
            for (const ws of sockets) ws.terminate();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    };
    if (address.kind === "tcp") server.listen(address.port, address.host, onListening);
    else server.listen(address.path, onListening);
  });
}
