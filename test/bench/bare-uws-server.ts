// The baseline of the RPC benches: a bare uWebSockets.js server in its own process answering
// GET <path> with fixed bytes (status line, headers and body given by the parent over IPC), the
// ceiling of any route a node serves over the same library. Prints nothing; sends {port}.
import { loadUws } from "../../src/rpc/server/uws-backend.js";

interface Page {
  path: string;
  headers: [string, string][];
  body: string;
}

const loaded = loadUws();
if (!("uws" in loaded)) throw new Error(`uWebSockets.js does not load: ${loaded.reason}`);
const { uws } = loaded;

process.once("message", (pages: Page[]) => {
  const app = uws.App();
  for (const page of pages) {
    app.get(page.path, (res) => {
      res.cork(() => {
        res.writeStatus("200 OK");
        for (const [name, value] of page.headers) res.writeHeader(name, value);
        res.end(page.body);
      });
    });
  }
  app.listen("127.0.0.1", 0, (socket) => {
    if (socket === false) throw new Error("bare uWS could not listen");
    process.send?.({ port: uws.us_socket_local_port(socket as never) });
  });
  process.on("disconnect", () => process.exit(0));
});
