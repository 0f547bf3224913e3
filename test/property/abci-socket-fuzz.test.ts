// Fuzz: whatever bytes an app sends back, the socket client ends with a typed AbciError naming the
// connection (or a correct answer), never a crash or a hang.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { connectSocketClient } from "../../src/abci/client/socket-client.js";
import { AbciError } from "../../src/abci/errors.js";
import { encodeLengthPrefix } from "../../src/abci/framing.js";
import { CheckTxType, Response } from "../../src/wire/generated/tendermint/abci/types.js";

const dir = mkdtempSync(join(tmpdir(), "rxbft-abci-fuzz-"));
const path = join(dir, "fuzz.sock");
let reply: Uint8Array = new Uint8Array();
let server: Server;
const sockets = new Set<Socket>();

before(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    // On the first bytes of a request, answer with the fuzzed reply and hang up.
    socket.once("data", () => socket.end(reply));
  });
  await new Promise<void>((r) => server.listen(path, r));
});
after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

const validFrame = (value: Response["value"]) => {
  const body = Response.encode({ value }).finish();
  return Buffer.concat([encodeLengthPrefix(body.length), body]);
};

describe("abci socket client fuzz", () => {
  it("turns any reply into an answer or a typed error naming the connection", async () => {
    const arbitraryReply = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      // A plausible prefix in front of random bytes, so decoding gets past the length.
      fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.concat([encodeLengthPrefix(b.length), b])),
      // A real response of some type (right or wrong), possibly cut short.
      fc
        .tuple(
          fc.constantFrom(
            validFrame({
              $case: "deliverTx",
              deliverTx: {
                code: 0,
                data: new Uint8Array(),
                log: "",
                info: "",
                gasWanted: 0n,
                gasUsed: 0n,
                events: [],
                codespace: "",
              },
            }),
            validFrame({ $case: "exception", exception: { error: "no" } }),
            validFrame({ $case: "flush", flush: {} }),
          ),
          fc.nat(),
        )
        .map(([f, cut]) => f.subarray(0, cut % (f.length + 1))),
    );
    await fc.assert(
      fc.asyncProperty(arbitraryReply, async (bytes) => {
        reply = bytes;
        const client = await connectSocketClient(`unix://${path}`);
        try {
          await client.mempool.checkTx({ tx: Uint8Array.of(1), type: CheckTxType.NEW });
          return false; // no fuzzed reply is a whole valid checkTx answer followed by a flush answer
        } catch (e) {
          assert.ok(e instanceof AbciError, `not an AbciError: ${String(e)}`);
          assert.equal(e.connection, "mempool");
          assert.match(e.message, /^abci mempool connection: /);
          return true;
        } finally {
          await client.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
