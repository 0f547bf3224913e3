// sha256 of one tx, the way the node hashes each tx (issue 19: sha256 was ~4 % of the main thread
// under load), beside the same run's baseline:
// - one-shot crypto.hash("sha256", tx) (Node ≥ 20.12) beside createHash("sha256").update(tx).digest(),
//   as bytes (the data hash's tx hashes) and as upper-case hex (admission's mempool key);
// - a block's data hash asked for a second time (validating our own proposal) beside the first
//   (making it): the second is remembered with the txs array.
// 100-byte txs, as the load bench sends. Bounded in count and time; never fails on time.
import * as nodeCrypto from "node:crypto";
import { dataHash } from "../../src/wire/hashes.js";
import { paired as pairedRate, type RateBudget } from "./paired-rate.js";

const BUDGET_MS = 250;
const ROUNDS = 3;
const MAX_ITERATIONS = 5_000_000;
const { createHash } = nodeCrypto;
const oneShot = (nodeCrypto as unknown as { hash?: (a: string, d: Uint8Array, e: string) => Buffer | string })
  .hash;

const budget: RateBudget = { budgetMs: BUDGET_MS, maxIterations: MAX_ITERATIONS, rounds: ROUNDS, batch: 500 };
/** Ours and the baseline in alternating rounds (paired-rate.ts); each side's best ops/s. */
const paired = (ours: () => void, baseline: () => void) => pairedRate(ours, baseline, budget);

const txs = Array.from({ length: 1024 }, (_, i) =>
  new TextEncoder().encode(`k${i}=${"v".repeat(96)}`.slice(0, 100)),
);
let at = 0;
const nextTx = () => txs[at++ & 1023]!;
let sink = 0;
const show = (what: string, [ours, base]: [number, number], baseName: string) =>
  console.log(
    `${what}: ${(1e6 / ours).toFixed(3)} µs/tx one-shot vs ${(1e6 / base).toFixed(3)} µs/tx ${baseName} (ratio ${(base / ours).toFixed(2)}× time)`,
  );

if (oneShot === undefined)
  console.log(`crypto.hash is absent on Node ${process.version}: one-shot rows skipped`);
else {
  show(
    "sha256 of a 100-byte tx as bytes",
    paired(
      () => {
        sink += (oneShot("sha256", nextTx(), "buffer") as Buffer)[0]!;
      },
      () => {
        sink += createHash("sha256").update(nextTx()).digest()[0]!;
      },
    ),
    "createHash().update().digest()",
  );
  show(
    "sha256 of a 100-byte tx as upper-case hex",
    paired(
      () => {
        sink += (oneShot("sha256", nextTx(), "hex") as string).toUpperCase().length;
      },
      () => {
        sink += createHash("sha256").update(nextTx()).digest("hex").toUpperCase().length;
      },
    ),
    "createHash().update().digest('hex')",
  );
}

// A block of 10,000 txs (a height under load): its data hash made, then asked again.
const block = Array.from({ length: 10_000 }, (_, i) =>
  new TextEncoder().encode(`b${i}=${"v".repeat(100)}`.slice(0, 100)),
);
let t = performance.now();
dataHash(block);
const first = performance.now() - t;
t = performance.now();
for (let i = 0; i < 10; i++) dataHash(block);
const again = (performance.now() - t) / 10;
console.log(
  `data hash of a 10,000-tx block: first ${first.toFixed(2)} ms (tx hashes and merkle tree), asked again ${again.toFixed(3)} ms (ratio ${(again / first).toFixed(3)})`,
);
console.log(`(sink ${sink & 1}, Node ${process.version})`);
