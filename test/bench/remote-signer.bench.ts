// Sign latency through the remote signer beside the file signer, in the same run: p50/p99 of one
// vote signed, asked the way consensus asks (one at a time, each awaited). Three cases, each over
// a fresh priv_validator_state.json with its durable write (two fsyncs per signature):
// - file: the node's own FileSigner (the baseline);
// - unix: RemoteSignerClient in this process, `rxbft signer`'s server (RemoteSignerServer + the
//   same FileSigner) in a child process, over a unix socket;
// - tcp: the same over loopback tcp inside v0.34's secret connection.
// The remote cases add a process hop each way, framing, the answer check (an ed25519 verify of
// the returned signature) and, on tcp, sealing and opening. Cases are interleaved three times so
// drift in the disk's speed hits all alike. Bounded in count and time; never fails on time.
// Writes bench-results/remote-signer.json.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { keyPairFromSeed } from "../../src/crypto/ed25519-keys.js";
import { createLogger } from "../../src/logger/index.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import { RemoteSignerClient } from "../../src/privval/remote/signer-client.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  writePrivValidatorState,
} from "../../src/types/key-file-priv-validator-state.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = fileURLToPath(new URL("../fixtures/privval/remote-signer-child.ts", import.meta.url));
const CHAIN = "bench-chain";
const SEED = 6;
const MAX_VOTES = 400;
const BUDGET_MS = 2500;
const pair = keyPairFromSeed(new Uint8Array(32).fill(SEED));
const fill = (n: number, v: number) => new Uint8Array(n).fill(v);
const logger = createLogger({ level: "error" });

const voteAt = (i: number): Vote => ({
  type: i % 2 === 0 ? SignedMsgType.SIGNED_MSG_TYPE_PREVOTE : SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
  height: 1n + BigInt(i >> 1),
  round: 0,
  blockId: { hash: fill(32, i & 0xff), partSetHeader: { total: 1, hash: fill(32, 2) } },
  timestamp: { seconds: 1_700_000_000n + BigInt(i), nanos: 0 },
  validatorAddress: fill(20, 3),
  validatorIndex: 0,
  signature: new Uint8Array(0),
});

type Case = "file" | "unix" | "tcp";

const dir = mkdtempSync(join(tmpdir(), "rxbft-remote-signer-bench-"));
let n = 0;
function freshState(): string {
  const path = join(mkdtempSync(join(dir, `s${n++}-`)), "priv_validator_state.json");
  writePrivValidatorState(path, INITIAL_PRIV_VALIDATOR_STATE);
  return path;
}

async function latencies(sign: (vote: Vote) => Promise<unknown>): Promise<number[]> {
  // A few warm-up votes (connection, JIT) are not counted.
  for (let i = 0; i < 5; i++) await sign(voteAt(i));
  const out: number[] = [];
  const start = performance.now();
  for (let i = 5; out.length < MAX_VOTES && performance.now() - start < BUDGET_MS; i++) {
    const t = performance.now();
    await sign(voteAt(i));
    out.push(performance.now() - t);
  }
  return out;
}

async function measure(kind: Case): Promise<number[]> {
  const statePath = freshState();
  if (kind === "file") {
    const signer = FileSigner.fromStateFile(pair.privateKey, statePath);
    return latencies((v) => signer.signVote(CHAIN, v));
  }
  const laddr = kind === "unix" ? `unix://${join(dir, `pv${n++}.sock`)}` : "tcp://127.0.0.1:0";
  const client = await RemoteSignerClient.listen({ laddr, chainId: CHAIN, logger });
  const child = spawn(
    process.execPath,
    ["--import", "tsx", CHILD, client.listenAddress, CHAIN, statePath, `${SEED}`],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  try {
    await client.waitForPublicKey(AbortSignal.timeout(20_000));
    return await latencies((v) => client.signVote(CHAIN, v));
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    await client.close();
  }
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

try {
  const all: Record<Case, number[]> = { file: [], unix: [], tcp: [] };
  for (let round = 0; round < 3; round++)
    for (const kind of ["file", "unix", "tcp"] as const) all[kind].push(...(await measure(kind)));
  const figures = Object.fromEntries(
    (Object.keys(all) as Case[]).map((kind) => {
      const sorted = [...all[kind]].sort((a, b) => a - b);
      return [
        kind,
        { votes: sorted.length, p50Ms: +pct(sorted, 50).toFixed(3), p99Ms: +pct(sorted, 99).toFixed(3) },
      ];
    }),
  ) as Record<Case, { votes: number; p50Ms: number; p99Ms: number }>;
  const base = figures.file;
  console.log("sign latency of one vote, awaited one at a time (durable state write in every case)");
  for (const kind of ["file", "unix", "tcp"] as const) {
    const f = figures[kind];
    const ratio =
      kind === "file"
        ? "baseline"
        : `${(f.p50Ms / base.p50Ms).toFixed(2)}x p50, ${(f.p99Ms / base.p99Ms).toFixed(2)}x p99 of the file signer`;
    console.log(
      `  ${kind.padEnd(5)} p50 ${f.p50Ms.toFixed(3)} ms  p99 ${f.p99Ms.toFixed(3)} ms  (${f.votes} votes; ${ratio})`,
    );
  }
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "remote-signer.json"), `${JSON.stringify(figures, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
