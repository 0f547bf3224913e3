// Commit verification figures beside same-run baselines:
// - a 100-validator commit verified on the calling thread (verifyCommitSync) and on the worker
//   pool (verifyCommit with a VerifyPool), beside raw node:crypto verify of the same 100
//   signatures with prebuilt KeyObjects (the floor: no sign bytes, no tally);
// - the pool's crossover: batches of n signatures on the pool vs on the calling thread, which is
//   where VerifyPool's DEFAULT_MAIN_THREAD_BELOW comes from.
// Medians of interleaved runs; bounded in count and time; never fails on time.
// Writes bench-results/commit-verify.json.
import { verify } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { ed25519PublicKeyObject } from "../../src/crypto/ed25519-verify.js";
import { addressOf } from "../../src/crypto/hash.js";
import { DEFAULT_MAIN_THREAD_BELOW, VerifyPool } from "../../src/crypto/verify-pool.js";
import { commitVoteSignBytes, verifyCommit, verifyCommitSync } from "../../src/types/commit-verification.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import { type BlockID, BlockIDFlag, type Commit } from "../../src/wire/generated/tendermint/types/types.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const RUNS = 21;
const BUDGET_MS = 2500;
const CHAIN = "bench-chain";
const HEIGHT = 1000n;
const SIZE = 100;

const keys = Array.from({ length: SIZE }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
const set = ValidatorSet.create(
  keys.map((k) => ({
    pubKey: { sum: { $case: "ed25519" as const, ed25519: k.publicKey } },
    votingPower: 10n,
  })),
);
const byAddress = new Map(keys.map((k) => [Buffer.from(addressOf(k.publicKey)).toString("hex"), k]));
const blockId: BlockID = {
  hash: new Uint8Array(32).fill(0xaa),
  partSetHeader: { total: 2, hash: new Uint8Array(32).fill(0xbb) },
};
const commit: Commit = {
  height: HEIGHT,
  round: 0,
  blockId,
  signatures: set.validators.map((v, i) => ({
    blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
    validatorAddress: v.address,
    timestamp: { seconds: 1_700_000_000n, nanos: i * 1000 },
    signature: new Uint8Array(0),
  })),
};
for (const [i, sig] of commit.signatures.entries()) {
  const signer = byAddress.get(Buffer.from(set.validators[i]!.address).toString("hex"))!;
  sig.signature = signEd25519(signer.privateKey, commitVoteSignBytes(CHAIN, commit, i));
}
const items = commit.signatures.map((sig, i) => ({
  publicKey: (set.validators[i]!.pubKey.sum as { ed25519: Uint8Array }).ed25519,
  message: commitVoteSignBytes(CHAIN, commit, i),
  signature: sig.signature,
}));
const prebuilt = items.map((i) => ed25519PublicKeyObject(i.publicKey)!);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeMs(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const pool = new VerifyPool();
await pool.warmUp();
const contenders: Record<string, () => unknown> = {
  "raw node:crypto, prebuilt keys (baseline)": () => {
    for (let i = 0; i < items.length; i++) {
      if (!verify(null, items[i]!.message, prebuilt[i]!, items[i]!.signature)) throw new Error("bad");
    }
  },
  "verifyCommitSync (calling thread)": () => verifyCommitSync(CHAIN, set, blockId, HEIGHT, commit),
  [`verifyCommit on the pool (${pool.size} workers)`]: () =>
    verifyCommit(CHAIN, set, blockId, HEIGHT, commit, { verifier: pool }),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
for (const fn of Object.values(contenders)) await fn(); // warm-up
const entries = Object.entries(contenders);
const start = performance.now();
for (let r = 0; r < RUNS && performance.now() - start < BUDGET_MS; r++) {
  for (let k = 0; k < entries.length; k++) {
    const [name, fn] = entries[(k + r) % entries.length]!;
    times[name]!.push(await timeMs(fn));
  }
}

// Crossover: n signatures on the pool vs here.
const crossover: { n: number; mainMs: number; poolMs: number }[] = [];
const forced = new VerifyPool({ size: pool.size, mainThreadBelow: 0 });
await forced.warmUp();
const here = new VerifyPool({ size: 0 });
for (const n of [1, 2, 4, 8, 16, 32]) {
  const batch = items.slice(0, n);
  const main: number[] = [];
  const onPool: number[] = [];
  await forced.verifyBatch(batch);
  for (let r = 0; r < 15; r++) {
    main.push(await timeMs(() => here.verifyBatch(batch)));
    onPool.push(await timeMs(() => forced.verifyBatch(batch)));
  }
  crossover.push({ n, mainMs: median(main), poolMs: median(onPool) });
}
await Promise.all([pool.close(), forced.close(), here.close()]);

const baseline = median(times["raw node:crypto, prebuilt keys (baseline)"]!);
console.log(
  `verifying a ${SIZE}-signature commit (median ms of ${times[entries[0]![0]]!.length} interleaved runs)`,
);
const result: Record<string, unknown> = { unit: "ms", commitSize: SIZE, contenders: {}, crossover };
for (const name of Object.keys(contenders)) {
  const ms = median(times[name]!);
  console.log(
    `  ${name.padEnd(44)} ${ms.toFixed(2).padStart(8)} ms   ${(ms / baseline).toFixed(2)}× baseline time`,
  );
  (result.contenders as Record<string, unknown>)[name] = { ms, ratioToBaseline: ms / baseline };
}
console.log(
  `pool crossover (default: batches below ${DEFAULT_MAIN_THREAD_BELOW} stay on the calling thread)`,
);
for (const c of crossover) {
  console.log(
    `  n=${String(c.n).padStart(2)}  here ${c.mainMs.toFixed(3)} ms   pool ${c.poolMs.toFixed(3)} ms   ${(c.poolMs / c.mainMs).toFixed(2)}×`,
  );
}
const single = median(times["verifyCommitSync (calling thread)"]!);
const pooled = median(times[entries[2]![0]]!);
result.ours = pooled;
result.baseline = baseline;
result.ratio = pooled / baseline;
result.singleThreadMs = single;
result.poolSpeedup = single / pooled;
console.log(`pool speed-up over the calling thread: ${(single / pooled).toFixed(2)}×`);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "commit-verify.json"), `${JSON.stringify(result, null, 2)}\n`);
