// CPU time per tx through the node's mempool, for A/B between builds on a shared machine: wall-clock
// rates (mempool.bench.ts, the load bench) move with other processes' load far more than between
// two builds, and the CPU a process spends on a fixed amount of work moves less. The mempool node
// over the in-process kvstore with the default cache (10,000): 20,000 fresh 100-byte txs submitted
// in turns of 64, reaped with dataHashAhead from the pool entries' digests (as the node's proposal
// does), committed with blockCommitted; user + system CPU (process.cpuUsage) per tx, median of 6
// rounds after a warm-up. MEMPOOL_CPU_ROOT names the clone whose sources run (default: this one).
// MEMPOOL_CPU_BASE=<clone> makes it an A/B in one run: the base clone and MEMPOOL_CPU_ROOT each run
// as a child process, alternated base, ours, base, ours… for MEMPOOL_CPU_PAIRS pairs (default 3),
// and the last line puts our median of the children's medians beside the base's as a ratio (a
// child per measurement, so neither build warms the other's JIT or heap):
//   flock /tmp/rxbft-bench.lock env MEMPOOL_CPU_BASE=/tmp/b-base node --import tsx test/bench/mempool-cpu-per-tx.ts
// Without MEMPOOL_CPU_BASE it measures the one build and prints one line. Never fails on time.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as AppModule from "../../src/abci/apps/kvstore.js";
import type * as ClientModule from "../../src/abci/client/in-process-client.js";
import type * as LoggerModule from "../../src/logger/index.js";
import type * as StateModule from "../../src/mempool/state.js";
import type * as HashesModule from "../../src/wire/hashes.js";
import type * as MempoolNodeModule from "../../streams/mempool-node.js";

const ROOT = process.env.MEMPOOL_CPU_ROOT ?? fileURLToPath(new URL("../..", import.meta.url));
const BASE = process.env.MEMPOOL_CPU_BASE;
const TXS = 20_000;
const TURN_TXS = 64;
const ROUNDS = 6;

if (BASE !== undefined && BASE !== "") {
  pairedRun(BASE, ROOT, Number(process.env.MEMPOOL_CPU_PAIRS ?? 3));
  process.exit(0);
}

/** One child per measurement, base first in each pair; each child's median µs per tx. */
function pairedRun(base: string, ours: string, pairs: number): void {
  if (!Number.isInteger(pairs) || pairs < 1)
    throw new Error(`MEMPOOL_CPU_PAIRS: "${pairs}" is not a count ≥ 1`);
  const script = fileURLToPath(import.meta.url);
  const measure = (root: string): number => {
    const env = { ...process.env, MEMPOOL_CPU_ROOT: root, MEMPOOL_CPU_BASE: "" };
    const child = spawnSync(process.execPath, ["--import", "tsx", script], { env, encoding: "utf8" });
    const line = child.stdout.trim().split("\n").at(-1) ?? "";
    const median = /per tx, median of \d+ rounds of \d+: ([0-9.]+)/.exec(line);
    if (child.status !== 0 || median === null) {
      throw new Error(
        `mempool CPU child for ${root} failed (status ${child.status}): ${child.stderr}${line}`,
      );
    }
    console.log(line);
    return Number(median[1]);
  };
  const baseFigures: number[] = [];
  const ourFigures: number[] = [];
  for (let p = 0; p < pairs; p++) {
    baseFigures.push(measure(base));
    ourFigures.push(measure(ours));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const [b, o] = [median(baseFigures), median(ourFigures)];
  console.log(
    `mempool CPU µs per tx, ${pairs} alternated pairs: ours ${o.toFixed(2)} [${ourFigures.map((x) => x.toFixed(2)).join(", ")}] ` +
      `vs base ${b.toFixed(2)} [${baseFigures.map((x) => x.toFixed(2)).join(", ")}] = ${(o / b).toFixed(3)}x`,
  );
}

const { Subject } = await import(join(ROOT, "node_modules/rxjs/dist/cjs/index.js"));
const { KvstoreApplication } = (await import(join(ROOT, "src/abci/apps/kvstore.ts"))) as typeof AppModule;
const { InProcessAbciClient } = (await import(
  join(ROOT, "src/abci/client/in-process-client.ts")
)) as typeof ClientModule;
const { createLogger } = (await import(join(ROOT, "src/logger/index.ts"))) as typeof LoggerModule;
const { DEFAULT_MEMPOOL_CONFIG } = (await import(join(ROOT, "src/mempool/state.ts"))) as typeof StateModule;
const { createMempoolNode } = (await import(
  join(ROOT, "streams/mempool-node.ts")
)) as typeof MempoolNodeModule;
const { dataHashAhead } = (await import(join(ROOT, "src/wire/hashes.ts"))) as typeof HashesModule;

const dir = mkdtempSync(join(tmpdir(), "rxbft-mempool-cpu-"));
const client = new InProcessAbciClient(await KvstoreApplication.open(join(dir, "kv")));
const mempool = createMempoolNode({
  config: { ...DEFAULT_MEMPOOL_CONFIG, size: 50_000 },
  height: 0n,
  connection: client.mempool,
  events$: new Subject(),
  logger: createLogger({ level: "none" }),
  onFault: (fault) => {
    throw new Error(fault.reason);
  },
});
const running = mempool.start();
const encoder = new TextEncoder();
let serial = 0;
const freshTx = () => {
  const head = `k${serial++}=`;
  return encoder.encode(head + "v".repeat(100 - head.length));
};
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
let height = 1n;

/** One height's worth: admitted, reaped, committed; CPU µs per tx. */
async function round(): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < TXS; i += TURN_TXS) {
    for (let j = 0; j < TURN_TXS; j++) void mempool.submit(freshTx());
    await turn();
  }
  await turn();
  const entries = [...mempool.state().txs.values()];
  const txs = entries.map((e) => e.tx);
  await dataHashAhead(
    txs,
    entries.map((e) => e.digests),
    () => Promise.resolve(),
  );
  const block = { header: { height: height++ }, data: { txs } } as unknown as Parameters<
    typeof mempool.blockCommitted
  >[0];
  await mempool.blockCommitted(block, txs.map(() => ({ code: 0 })) as never);
  await turn();
  if (mempool.state().txs.size !== 0) throw new Error("the block's txs did not all leave the pool");
  const used = process.cpuUsage(before);
  return (used.user + used.system) / txs.length;
}

await round();
const perTx: number[] = [];
for (let r = 0; r < ROUNDS; r++) perTx.push(await round());
perTx.sort((a, b) => a - b);
console.log(
  `${ROOT}: mempool CPU µs per tx, median of ${ROUNDS} rounds of ${TXS}: ${perTx[ROUNDS >> 1]!.toFixed(2)} ` +
    `(min ${perTx[0]!.toFixed(2)}, max ${perTx[ROUNDS - 1]!.toFixed(2)})`,
);
running.unsubscribe();
await client.close();
rmSync(dir, { recursive: true, force: true });
