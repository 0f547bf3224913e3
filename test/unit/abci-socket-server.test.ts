import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { connectSocketClient } from "../../src/abci/client/socket-client.js";
import { FrameDecoder } from "../../src/abci/framing.js";
import { listenAbci } from "../../src/abci/server/socket-server.js";
import { Response } from "../../src/wire/generated/tendermint/abci/types.js";

const dir = mkdtempSync(join(tmpdir(), "rxbft-abci-server-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const enc = new TextEncoder();

describe("abci socket server", () => {
  it("serves kvstore in order across its async Commit", async () => {
    const app = await KvstoreApplication.open(join(dir, "kv"));
    const path = join(dir, "kv.sock");
    const server = await listenAbci(app, { kind: "unix", path });
    const client = await connectSocketClient(`unix://${path}`);
    try {
      const delivered = Array.from({ length: 100 }, (_, i) =>
        client.consensus.deliverTx({ tx: enc.encode(`k${i}=v${i}`) }),
      );
      const commit = client.consensus.commit();
      const after = client.consensus.deliverTx({ tx: enc.encode("late=1") });
      assert.ok((await Promise.all(delivered)).every((r) => r.code === 0 && r.events[0]!.type === "app"));
      assert.equal(Buffer.from((await commit).data).toString("hex"), "c801000000000000");
      assert.equal((await after).code, 0);
      const q = await client.query.query({ data: enc.encode("k42"), path: "", height: 0n, prove: false });
      assert.equal(Buffer.from(q.value).toString(), "v42");
      assert.equal(q.height, 1n);
    } finally {
      await client.close();
      await server.close();
      await app.close();
    }
  });

  it("answers a request without a value with Exception(Unknown request)", async () => {
    const app = await KvstoreApplication.open(join(dir, "kv2"));
    const path = join(dir, "raw.sock");
    const server = await listenAbci(app, { kind: "unix", path });
    try {
      const reply = await new Promise<Response>((resolve, reject) => {
        const socket = connect({ path });
        const decoder = new FrameDecoder();
        socket.on("error", reject);
        socket.on("data", (chunk) => {
          const [frame] = decoder.push(chunk);
          if (frame) {
            resolve(Response.decode(frame));
            socket.destroy();
          }
        });
        socket.write(Uint8Array.of(0x00)); // a zero-length frame: Request with no value
      });
      assert.deepEqual(reply.value, { $case: "exception", exception: { error: "Unknown request" } });
    } finally {
      await server.close();
      await app.close();
    }
  });
});
