// Signer figures beside a same-run baseline: votes signed/s by the file signer (HRS check, sign
// bytes, ed25519 signature, durable write of priv_validator_state.json: temp file, fsync, rename,
// fsync of the directory) beside raw node:crypto ed25519 signatures of the same sign bytes with a
// cached key. The ratio is dominated by the two fsyncs per signature, which is the point: a
// signature never leaves before its state is on disk. A validator signs ~3 messages per height.
// Also the signer over an in-memory store, to show the cost without the disk.
// Bounded in count and time; never fails on time. Writes bench-results/privval.json.
import { sign } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { keyPairFromSeed, privateKeyObjectFromSeed } from "../../src/crypto/ed25519-keys.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import { memorySignStateStore } from "../../src/privval/sign-state-store.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  writePrivValidatorState,
} from "../../src/types/key-file-priv-validator-state.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BUDGET_MS = 1500;
const MAX_VOTES = 5000;
const CHAIN = "bench-chain";
const pair = keyPairFromSeed(new Uint8Array(32).fill(5));
const fill = (n: number, v: number) => new Uint8Array(n).fill(v);

/** The i-th vote of a validator moving forward: prevote and precommit per height. */
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

async function rate(signOne: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  let i = 0;
  while (i < MAX_VOTES && performance.now() - start < BUDGET_MS) await signOne(i++);
  return (i / (performance.now() - start)) * 1000;
}

const dir = mkdtempSync(join(tmpdir(), "rxbft-privval-bench-"));
try {
  const statePath = join(dir, "priv_validator_state.json");
  writePrivValidatorState(statePath, INITIAL_PRIV_VALIDATOR_STATE);
  const fileSigner = FileSigner.fromStateFile(pair.privateKey, statePath);
  const durable = await rate((i) => fileSigner.signVote(CHAIN, voteAt(i)));

  const store = memorySignStateStore();
  const memorySigner = new FileSigner(pair.privateKey, store, store.state);
  const inMemory = await rate((i) => memorySigner.signVote(CHAIN, voteAt(i)));

  const key = privateKeyObjectFromSeed(pair.privateKey.subarray(0, 32));
  const signBytes = Array.from({ length: 512 }, (_, i) => voteSignBytes(CHAIN, voteAt(i)));
  const raw = await rate((i) => sign(null, signBytes[i % signBytes.length]!, key));

  const results = {
    votesSignedPerSecondDurable: Math.round(durable),
    votesSignedPerSecondInMemoryState: Math.round(inMemory),
    rawNodeCryptoSignPerSecond: Math.round(raw),
    durableRatio: +(durable / raw).toFixed(4),
    inMemoryRatio: +(inMemory / raw).toFixed(3),
  };
  console.log(
    `file signer, durable state: ${results.votesSignedPerSecondDurable} votes/s vs raw node:crypto sign ${results.rawNodeCryptoSignPerSecond}/s (ratio ${results.durableRatio}; two fsyncs per vote dominate)`,
  );
  console.log(
    `file signer, in-memory state: ${results.votesSignedPerSecondInMemoryState} votes/s vs raw sign (ratio ${results.inMemoryRatio}; sign bytes + HRS check + signature)`,
  );
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "privval.json"), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
