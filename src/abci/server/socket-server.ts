// Serves an Application over the ABCI socket protocol (what Tendermint's abci/server does): each
// accepted socket is one connection; requests are answered strictly in order; answers are
// buffered and written when the Flush answer is, so a pipelined burst costs one write.
import { createServer, type Server, type Socket } from "node:net";
import { Request, Response } from "../../wire/generated/tendermint/abci/types.js";
import type { Application } from "../apps/application.js";
import type { AbciLogger } from "../client/abci-client.js";
import { silentLogger } from "../client/abci-client.js";
import type { SocketAddress } from "../client/address.js";
import type { AbciError } from "../errors.js";
import { encodeLengthPrefix, FrameDecoder } from "../framing.js";

type Answer = Response["value"];

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown })?.then === "function";
}

/** Answers one request with the app; Echo and Flush are the server's own. */
export function dispatch(app: Application, request: Request): Answer | Promise<Answer> {
  const v = request.value;
  const wrap =
    <C extends string>(c: C) =>
    <T>(r: T | Promise<T>): Answer | Promise<Answer> =>
      isPromise(r) ? r.then((x) => ({ $case: c, [c]: x }) as never) : ({ $case: c, [c]: r } as never);
  switch (v?.$case) {
    case "echo":
      return { $case: "echo", echo: { message: v.echo.message } };
    case "flush":
      return { $case: "flush", flush: {} };
    case "info":
      return wrap("info")(app.info(v.info));
    case "setOption":
      return wrap("setOption")(app.setOption(v.setOption));
    case "initChain":
      return wrap("initChain")(app.initChain(v.initChain));
    case "query":
      return wrap("query")(app.query(v.query));
    case "beginBlock":
      return wrap("beginBlock")(app.beginBlock(v.beginBlock));
    case "checkTx":
      return wrap("checkTx")(app.checkTx(v.checkTx));
    case "deliverTx":
      return wrap("deliverTx")(app.deliverTx(v.deliverTx));
    case "endBlock":
      return wrap("endBlock")(app.endBlock(v.endBlock));
    case "commit":
      return wrap("commit")(app.commit(v.commit));
    case "listSnapshots":
      return wrap("listSnapshots")(app.listSnapshots(v.listSnapshots));
    case "offerSnapshot":
      return wrap("offerSnapshot")(app.offerSnapshot(v.offerSnapshot));
    case "loadSnapshotChunk":
      return wrap("loadSnapshotChunk")(app.loadSnapshotChunk(v.loadSnapshotChunk));
    case "applySnapshotChunk":
      return wrap("applySnapshotChunk")(app.applySnapshotChunk(v.applySnapshotChunk));
    default:
      return { $case: "exception", exception: { error: "Unknown request" } };
  }
}

function encodeAnswer(answer: Answer): Uint8Array[] {
  const body = Response.encode({ value: answer }).finish();
  return [encodeLengthPrefix(body.length), body];
}

/** Serves one accepted socket. */
export function serveConnection(app: Application, socket: Socket, logger: AbciLogger = silentLogger): void {
  const decoder = new FrameDecoder(undefined, "server");
  let out: Uint8Array[] = [];
  // Answers that are promises keep order: while any is outstanding, later requests queue behind it.
  let outstanding = 0;
  let tail: Promise<void> = Promise.resolve();
  socket.setNoDelay(true);

  const emit = (a: Answer): void => {
    if (socket.destroyed) return;
    out.push(...encodeAnswer(a));
    if (a?.$case === "flush" || a?.$case === "exception") {
      socket.write(out.length === 1 ? out[0]! : Buffer.concat(out));
      out = [];
    }
    if (a?.$case === "exception") socket.end();
  };
  const fault = (err: unknown): void =>
    emit({ $case: "exception", exception: { error: String((err as Error)?.message ?? err) } });
  const answer = (request: Request): Promise<void> | undefined => {
    try {
      const a = dispatch(app, request);
      if (isPromise(a)) return a.then(emit, fault);
      emit(a);
    } catch (err) {
      fault(err);
    }
    return undefined;
  };

  socket.on("data", (chunk: Buffer) => {
    let frames: Uint8Array[];
    try {
      frames = decoder.push(chunk);
    } catch (err) {
      logger.error("abci server: bad frame from the node, closing", { err: (err as AbciError).message });
      socket.destroy();
      return;
    }
    for (const frame of frames) {
      let request: Request;
      try {
        request = Request.decode(frame);
      } catch (err) {
        logger.error("abci server: undecodable request, closing", { err: (err as Error).message });
        socket.destroy();
        return;
      }
      if (outstanding === 0) {
        const pending = answer(request);
        if (pending === undefined) continue;
        outstanding++;
        tail = pending.finally(() => {
          outstanding--;
        });
      } else {
        outstanding++;
        tail = tail
          .then(() => answer(request))
          .finally(() => {
            outstanding--;
          });
      }
    }
  });
  socket.on("error", (err) => logger.debug("abci server: socket error", { err: err.message }));
}

export interface AbciSocketServer {
  readonly server: Server;
  close(): Promise<void>;
}

/** Listens on `address` and serves `app` on every accepted connection. */
export function listenAbci(
  app: Application,
  address: SocketAddress,
  logger: AbciLogger = silentLogger,
): Promise<AbciSocketServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    serveConnection(app, socket, logger);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    const ready = () => {
      server.off("error", reject);
      resolve({
        server,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    };
    if (address.kind === "unix") server.listen(address.path, ready);
    else server.listen(address.port, address.host, ready);
  });
}
