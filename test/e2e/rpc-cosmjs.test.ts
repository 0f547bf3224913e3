// CosmJS's Tendermint 0.34 client, unchanged, against a node with rpc.compat = "tendermint":
// its strict decoders accept every result (over HTTP and over WebSocket), and its NewBlock and
// Tx subscriptions decode the pushed events. A rejection here is an encoder bug.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Tendermint34Client } from "@cosmjs/tendermint-rpc";
import { initFastHome, NodeProcess } from "./node-harness.js";

let node: NodeProcess;
let http: Tendermint34Client;
let ws: Tendermint34Client;
const utf8 = (text: string) => new TextEncoder().encode(text);

before(async () => {
  const home = await initFastHome({ timeout_commit: "300ms", compat: "tendermint" }, "rxbft-cosmjs-");
  node = new NodeProcess(home);
  await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 3n, "the node at height 3");
  http = await Tendermint34Client.connect(node.rpcUrl!);
  // CosmJS adds the /websocket path itself.
  ws = await Tendermint34Client.connect(node.rpcUrl!.replace("http://", "ws://"));
  // CosmJS 0.36's queueing socket stalls for good when it connects with an empty request queue
  // (processQueue leaves isProcessingQueue set), so the first call is queued before it opens.
  await ws.health();
});

after(async () => {
  http?.disconnect();
  ws?.disconnect();
  node?.kill("SIGINT");
  await node?.exited;
  // CosmJS's ReconnectingSocket schedules reconnects even after disconnect(): once the results
  // are reported, do not let its timers hold the process (exit code stays the runner's).
  setTimeout(() => process.exit(), 2000).unref();
});

for (const transport of ["http", "ws"] as const) {
  const client = () => (transport === "http" ? http : ws);

  test(`${transport}: status, block, blockchain, blockResults, commit, validators, genesis`, {
    timeout: 20_000,
  }, async () => {
    const status = await client().status();
    assert.equal(status.nodeInfo.version, "0.34.24");
    assert.ok(status.syncInfo.latestBlockHeight >= 2);
    assert.equal(status.validatorInfo.pubkey?.algorithm, "ed25519");
    assert.equal(status.validatorInfo.votingPower, 10n);

    const block = await client().block(2);
    assert.equal(block.block.header.height, 2);
    assert.equal(block.blockId.hash.length, 32);
    assert.ok(block.block.lastCommit !== null);
    assert.equal(block.block.lastCommit.height, 1);

    const chain = await client().blockchain(1, 2);
    assert.deepEqual(
      chain.blockMetas.map((m) => m.header.height),
      [2, 1],
    );
    assert.ok(chain.blockMetas[0]!.blockSize > 0);

    const results = await client().blockResults(2);
    assert.equal(results.height, 2);

    const commit = await client().commit(2);
    assert.equal(commit.canonical, true);
    assert.equal(commit.commit.height, 2);
    assert.equal(commit.header.height, 2);

    const validators = await client().validators({ height: 1 });
    assert.equal(validators.total, 1);
    assert.equal(validators.validators[0]!.votingPower, 10n);

    const genesis = await client().genesis();
    assert.equal(genesis.validators.length, 1);
    assert.equal(genesis.consensusParams.block?.maxBytes, 22020096);
  });

  test(`${transport}: broadcastTxSync/Async/Commit, tx with proof, abciQuery`, {
    timeout: 30_000,
  }, async () => {
    const sync = await client().broadcastTxSync({ tx: utf8(`${transport}-sync=${Date.now()}`) });
    assert.equal(sync.code, 0);
    assert.equal(sync.hash.length, 32);
    const async = await client().broadcastTxAsync({ tx: utf8(`${transport}-async=${Date.now()}`) });
    assert.equal(async.hash.length, 32);

    const key = `${transport}-commit`;
    const committed = await client().broadcastTxCommit({ tx: utf8(`${key}=yes`) });
    assert.equal(committed.checkTx.code, 0);
    assert.equal(committed.deliverTx?.code, 0);
    assert.ok(committed.height > 0);

    const tx = await client().tx({ hash: committed.hash, prove: true });
    assert.equal(tx.height, committed.height);
    assert.equal(Buffer.from(tx.tx).toString(), `${key}=yes`);
    assert.ok(tx.proof !== undefined);
    // the block may hold the sync and async txs too
    assert.ok(tx.proof.proof.index < tx.proof.proof.total);
    assert.equal(tx.proof.proof.leafHash.length, 32);

    const query = await client().abciQuery({ path: "/store", data: utf8(key) });
    assert.equal(Buffer.from(query.value).toString(), "yes");
    assert.equal(query.code, 0);

    const search = await client().txSearch({ query: `tx.height=${committed.height}` });
    assert.ok(search.totalCount >= 1);
  });
}

test("ws: NewBlock and Tx subscriptions decode the pushed events", { timeout: 20_000 }, async () => {
  const newBlock = new Promise<number>((resolve, reject) => {
    const sub = ws.subscribeNewBlock().subscribe({
      next: (event) => {
        sub.unsubscribe();
        resolve(event.header.height);
      },
      error: reject,
      complete: () => {},
    });
  });
  const tx = utf8(`subscribed=${Date.now()}`);
  const txEvent = new Promise<{ height: number; tx: Uint8Array; code: number }>((resolve, reject) => {
    const sub = ws.subscribeTx().subscribe({
      next: (event) => {
        if (Buffer.from(event.tx).equals(Buffer.from(tx))) {
          sub.unsubscribe();
          resolve({ height: event.height, tx: event.tx, code: event.result.code });
        }
      },
      error: reject,
      complete: () => {},
    });
  });
  const height = await newBlock;
  assert.ok(height >= 2);
  // the subscription request reaches the server before the tx does
  await new Promise((r) => setTimeout(r, 200));
  await http.broadcastTxSync({ tx });
  const got = await txEvent;
  assert.equal(got.code, 0);
  assert.ok(got.height > height - 1);
});
