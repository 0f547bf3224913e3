// ABCI socket client figures, against the out-of-process test app (noop app) over a unix socket:
// CheckTx round trips per second pipelined (bursts of 1000 calls in one tick: one write, one
// Flush) beside one-at-a-time (await each call: a round trip per tx, Tendermint's sync style).
// And a 10,000-tx block (BeginBlock, pipelined DeliverTx, EndBlock, Commit) sent over the socket,
// beside the same block into the in-process noop app (what the socket costs per block).
// Rounds alternate between contenders; medians. Bounded in count and time; never fails on time.
// Writes bench-results/abci-socket.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NoopApplication } from "../../src/abci/apps/noop.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { connectSocketClient } from "../../src/abci/client/socket-client.js";
import { commitBlockOnApp } from "../../src/abci/execute-block.js";
import { applyInitChain, stateFromGenesis } from "../../src/state/genesis-state.js";
import { CheckTxType } from "../../src/wire/generated/tendermint/abci/types.js";
import { startTestApp } from "../fixtures/abci-test-app/process.js";
import { buildBlock, testGenesis } from "../fixtures/abci-test-app/test-chain.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 5;
const ROUND_MS = 300;
const BURST = 1000;
const MAX_PER_ROUND = 200_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), "rxbft-abci-bench-"));
const address = `unix://${join(dir, "app.sock")}`;
const app = await startTestApp([`${address}=ok`], ["--app", "noop"]);
const client = await connectSocketClient(address);
const tx = new Uint8Array(64).fill(7);
const req = { tx, type: CheckTxType.NEW };

async function pipelined(): Promise<number> {
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < ROUND_MS && count < MAX_PER_ROUND) {
    const burst: Promise<unknown>[] = [];
    for (let i = 0; i < BURST; i++) burst.push(client.mempool.checkTx(req));
    await Promise.all(burst);
    count += BURST;
  }
  return (count / (performance.now() - start)) * 1000;
}

async function oneAtATime(): Promise<number> {
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < ROUND_MS && count < MAX_PER_ROUND) {
    await client.mempool.checkTx(req);
    count++;
  }
  return (count / (performance.now() - start)) * 1000;
}

const genesisState = applyInitChain(stateFromGenesis(testGenesis(4)), {
  consensusParams: undefined,
  validators: [],
  appHash: new Uint8Array(),
});
const { block } = buildBlock(genesisState, {
  txs: Array.from({ length: 10_000 }, (_, i) => new TextEncoder().encode(`key${i}=value${i}`)),
});
const local = new InProcessAbciClient(new NoopApplication());

async function blockMs(consensus: typeof client.consensus): Promise<number> {
  const start = performance.now();
  await commitBlockOnApp(consensus, block, block.header.lastCommitHash, [], genesisState.initialHeight);
  return performance.now() - start;
}

try {
  await pipelined(); // warm up both sides
  await blockMs(client.consensus);
  const piped: number[] = [];
  const single: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    single.push(await oneAtATime());
    piped.push(await pipelined());
  }
  const socketBlock: number[] = [];
  const localBlock: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    localBlock.push(await blockMs(local.consensus));
    socketBlock.push(await blockMs(client.consensus));
  }
  const result = {
    block10kTxsSocketMs: Number(median(socketBlock).toFixed(1)),
    block10kTxsInProcessMs: Number(median(localBlock).toFixed(1)),
    blockRatio: Number((median(socketBlock) / median(localBlock)).toFixed(2)),
    checkTxPerSecondPipelined: Math.round(median(piped)),
    checkTxPerSecondOneAtATime: Math.round(median(single)),
    ratio: Number((median(piped) / median(single)).toFixed(2)),
  };
  console.log(
    `CheckTx over unix socket, one at a time (baseline): ${result.checkTxPerSecondOneAtATime.toLocaleString()} /s`,
  );
  console.log(
    `CheckTx over unix socket, pipelined bursts of ${BURST}: ${result.checkTxPerSecondPipelined.toLocaleString()} /s`,
  );
  console.log(`ratio pipelined / one-at-a-time: ${result.ratio}x`);
  console.log(`10,000-tx block into noop, in-process (baseline): ${result.block10kTxsInProcessMs} ms`);
  console.log(`10,000-tx block into noop over the unix socket: ${result.block10kTxsSocketMs} ms`);
  console.log(`ratio socket / in-process: ${result.blockRatio}x`);
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "abci-socket.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await client.close();
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
}
