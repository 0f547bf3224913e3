// The Prometheus endpoint: every path answers the registry's text exposition (as v0.34's handler
// does, /metrics included), on prometheus_listen_addr. max_open_connections works like Go's
// netutil.LimitListener: connections beyond the limit wait, unread, until one closes (0 = no limit).
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createNetServer, type Socket } from "node:net";
import type { Registry } from "prom-client";
import { MetricsError } from "./errors.js";

export interface MetricsServerOptions {
  /** "host:port"; an empty host listens on every interface, as Go does. Port 0 picks a free one. */
  listenAddr: string;
  maxOpenConnections: number;
}

export interface MetricsServerHandle {
  /** host:port it listens on (the real port when 0 was asked) */
  address: string;
  port: number;
  close(): Promise<void>;
}

export function parseHostPort(address: string): { host: string | undefined; port: number } {
  const text = address.replace(/^tcp:\/\//, "");
  const at = text.lastIndexOf(":");
  const port = Number(text.slice(at + 1));
  if (at < 0 || !Number.isInteger(port) || port < 0 || port > 65535 || text.slice(at + 1) === "") {
    throw new MetricsError(
      "METRICS_BAD_LISTEN_ADDR",
      `instrumentation.prometheus_listen_addr: expected "host:port" (e.g. ":26660"), got ${JSON.stringify(address)}`,
    );
  }
  const host = text.slice(0, at).replace(/^\[(.*)\]$/, "$1");
  return { host: host === "" ? undefined : host, port };
}

export async function startMetricsServer(
  registry: Registry,
  options: MetricsServerOptions,
): Promise<MetricsServerHandle> {
  const { host, port } = parseHostPort(options.listenAddr);
  const http = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { "Content-Type": registry.contentType });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end(`error gathering metrics: ${String(error)}\n`);
      },
    );
  });
  http.keepAliveTimeout = 5000;
  const limit = options.maxOpenConnections;
  let open = 0;
  const waiting: Socket[] = [];
  const sockets = new Set<Socket>();
  const admit = (socket: Socket) => {
    open++;
    socket.once("close", () => {
      open--;
      sockets.delete(socket);
      const next = waiting.shift();
      if (next) admit(next);
    });
    http.emit("connection", socket);
    socket.resume();
  };
  const net = createNetServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    if (limit > 0 && open >= limit) {
      waiting.push(socket);
      socket.once("close", () => {
        sockets.delete(socket);
        const i = waiting.indexOf(socket);
        if (i >= 0) waiting.splice(i, 1);
      });
      return;
    }
    admit(socket);
  });
  await new Promise<void>((resolve, reject) => {
    net.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new MetricsError(
          "METRICS_LISTEN_FAILED",
          `instrumentation.prometheus_listen_addr ${options.listenAddr}: ${error.code ?? ""} ${error.message}`.trim(),
        ),
      ),
    );
    net.listen({ port, ...(host ? { host } : {}) }, resolve);
  });
  const bound = net.address();
  const realPort = typeof bound === "object" && bound ? bound.port : port;
  return {
    address: `${host ?? ""}:${realPort}`,
    port: realPort,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        net.close(() => resolve());
      }),
  };
}
