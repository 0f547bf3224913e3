// Block execution figures for the in-process kvstore:
// - DeliverTx/s through the in-process client (the path the node takes) beside a plain loop
//   calling the app's deliverTx directly (the floor: no client, no promises);
// - a 10,000-tx block through executeBlock (BeginBlock, pipelined DeliverTx, EndBlock, next
//   state with the last results hash, Commit writing to LevelDB) beside the plain loop over the
//   same txs plus the app's Commit.
// Rounds alternate between contenders; medians. Bounded in count and time; never fails on time.
// Writes bench-results/abci-block.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { executeBlock } from "../../src/abci/execute-block.js";
import { applyInitChain, stateFromGenesis } from "../../src/state/genesis-state.js";
import type { State } from "../../src/wire/generated/tendermint/state/types.js";
import { buildBlock, testGenesis } from "../fixtures/abci-test-app/test-chain.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 5;
const ROUND_MS = 250;
const BLOCK_TXS = 10_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const enc = new TextEncoder();

const dir = mkdtempSync(join(tmpdir(), "rxbft-abci-block-bench-"));
const app = await KvstoreApplication.open(join(dir, "a"));
const plainApp = await KvstoreApplication.open(join(dir, "b"));
const client = new InProcessAbciClient(app);
let serial = 0;
const freshTxs = (n: number) => Array.from({ length: n }, () => enc.encode(`key${serial}=value${serial++}`));

async function viaClient(): Promise<number> {
  const txs = freshTxs(5000);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < ROUND_MS && count < 200_000) {
    const pending: Promise<unknown>[] = [];
    for (const tx of txs) pending.push(client.consensus.deliverTx({ tx }));
    await Promise.all(pending);
    count += txs.length;
  }
  const rate = (count / (performance.now() - start)) * 1000;
  await client.consensus.commit();
  return rate;
}

async function plainLoop(): Promise<number> {
  const txs = freshTxs(5000);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < ROUND_MS && count < 200_000) {
    for (const tx of txs) plainApp.deliverTx({ tx });
    count += txs.length;
  }
  const rate = (count / (performance.now() - start)) * 1000;
  await plainApp.commit();
  return rate;
}

// A chain for whole blocks: the genesis state and blocks built on it as the node would.
let state: State = applyInitChain(stateFromGenesis(testGenesis(4)), {
  consensusParams: undefined,
  validators: [],
  appHash: new Uint8Array(),
});

async function blockViaExecutor(): Promise<number> {
  const { block, blockId } = buildBlock(state, { txs: freshTxs(BLOCK_TXS) });
  const start = performance.now();
  const out = await executeBlock({ consensus: client.consensus }, state, block, blockId);
  const ms = performance.now() - start;
  state = out.state;
  return ms;
}

async function blockPlain(): Promise<number> {
  const txs = freshTxs(BLOCK_TXS);
  const start = performance.now();
  for (const tx of txs) plainApp.deliverTx({ tx });
  await plainApp.commit();
  return performance.now() - start;
}

try {
  await viaClient();
  await plainLoop();
  const client1: number[] = [];
  const plain1: number[] = [];
  const exec: number[] = [];
  const plain2: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    plain1.push(await plainLoop());
    client1.push(await viaClient());
    plain2.push(await blockPlain());
    exec.push(await blockViaExecutor());
  }
  const result = {
    deliverTxPerSecondInProcessClient: Math.round(median(client1)),
    deliverTxPerSecondPlainLoop: Math.round(median(plain1)),
    deliverTxRatio: Number((median(client1) / median(plain1)).toFixed(2)),
    block10kTxsExecuteMs: Number(median(exec).toFixed(1)),
    block10kTxsPlainLoopMs: Number(median(plain2).toFixed(1)),
    blockRatio: Number((median(exec) / median(plain2)).toFixed(2)),
  };
  console.log(
    `DeliverTx into kvstore, plain loop over app.deliverTx (baseline): ${result.deliverTxPerSecondPlainLoop.toLocaleString()} /s`,
  );
  console.log(
    `DeliverTx into kvstore, in-process client: ${result.deliverTxPerSecondInProcessClient.toLocaleString()} /s`,
  );
  console.log(`ratio client / plain: ${result.deliverTxRatio}x`);
  console.log(`10,000-tx block, plain loop + commit (baseline): ${result.block10kTxsPlainLoopMs} ms`);
  console.log(
    `10,000-tx block, executeBlock (BeginBlock…Commit + next state): ${result.block10kTxsExecuteMs} ms`,
  );
  console.log(
    `ratio executeBlock / plain: ${result.blockRatio}x (≈ ${Math.round(BLOCK_TXS / (result.block10kTxsExecuteMs / 1000)).toLocaleString()} tx/s)`,
  );
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "abci-block.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await client.close();
  await plainApp.close();
  rmSync(dir, { recursive: true, force: true });
}
