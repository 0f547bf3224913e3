import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { Ed25519Verifier } from "../../src/crypto/ed25519-verify.js";
import { CryptoError } from "../../src/crypto/errors.js";
import { VerifiedSignatures } from "../../src/crypto/verified-signatures.js";
import { forEachPackedItem, packVerifyItems } from "../../src/crypto/verify-batch-packing.js";
import type { VerifyItem } from "../../src/crypto/verify-item.js";
import { MAX_CHUNK_ITEMS, mainThreadBatchVerifier, VerifyPool } from "../../src/crypto/verify-pool.js";

// 40 signers; every third signature is corrupted, every seventh key has a wrong length.
function makeItems(count: number): { items: VerifyItem[]; expected: boolean[] } {
  const signers = Array.from({ length: 40 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
  const items: VerifyItem[] = [];
  const expected: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const signer = signers[i % signers.length] as (typeof signers)[number];
    const message = new TextEncoder().encode(`vote ${i}`);
    const signature = signEd25519(signer.privateKey, message);
    let valid = true;
    if (i % 3 === 1) {
      signature[i % 64] ^= 1;
      valid = false;
    }
    let publicKey = signer.publicKey;
    if (i % 7 === 6) {
      publicKey = publicKey.subarray(0, 31);
      valid = false;
    }
    items.push({ publicKey, message, signature });
    expected.push(valid);
  }
  return { items, expected };
}

test("packing round-trips every item's bytes, including odd lengths", () => {
  const items: VerifyItem[] = [
    { publicKey: new Uint8Array([1, 2, 3]), message: new Uint8Array(0), signature: new Uint8Array([9]) },
    { publicKey: new Uint8Array(32).fill(7), message: new Uint8Array([4, 5]), signature: new Uint8Array(64) },
  ];
  const seen: VerifyItem[] = [];
  const count = forEachPackedItem(packVerifyItems(items), (publicKey, message, signature) =>
    seen.push({ publicKey: publicKey.slice(), message: message.slice(), signature: signature.slice() }),
  );
  assert.equal(count, 2);
  assert.deepEqual(seen, items);
  const tail: VerifyItem[] = [];
  forEachPackedItem(packVerifyItems(items, 1, 2), (publicKey, message, signature) =>
    tail.push({ publicKey: publicKey.slice(), message: message.slice(), signature: signature.slice() }),
  );
  assert.deepEqual(tail, [items[1]]);
});

test("workers and the main thread give identical answers on a mixed batch", async () => {
  const { items, expected } = makeItems(90);
  const onWorkers = new VerifyPool({ size: 2, mainThreadBelow: 0, verified: null });
  const onMain = new VerifyPool({ size: 2, mainThreadBelow: 1_000, verified: null });
  try {
    const [a, b, c] = await Promise.all([
      onWorkers.verifyBatch(items),
      onMain.verifyBatch(items),
      mainThreadBatchVerifier.verifyBatch(items),
    ]);
    assert.deepEqual(a, expected);
    assert.deepEqual(b, expected);
    assert.deepEqual(c, expected);
  } finally {
    await Promise.all([onWorkers.close(), onMain.close()]);
  }
});

test("a batch larger than one chunk is split, reassembled in order, and runs concurrently with others", async () => {
  const { items, expected } = makeItems(MAX_CHUNK_ITEMS + 45);
  const pool = new VerifyPool({ size: 2, mainThreadBelow: 0, verified: null });
  try {
    const small = makeItems(5);
    const [big, other] = await Promise.all([pool.verifyBatch(items), pool.verifyBatch(small.items)]);
    assert.deepEqual(big, expected);
    assert.deepEqual(other, small.expected);
  } finally {
    await pool.close();
  }
});

test("a pool of size 0 verifies on the calling thread", async () => {
  const { items, expected } = makeItems(12);
  const pool = new VerifyPool({ size: 0, mainThreadBelow: 0, verified: null });
  assert.deepEqual(await pool.verifyBatch(items), expected);
  assert.deepEqual(await pool.verifyBatch([]), []);
  await pool.close();
});

test("a triple verified once is answered from the memo; a changed message or key is verified again", async () => {
  const { items, expected } = makeItems(30);
  let real = 0;
  const counting = new (class extends Ed25519Verifier {
    override verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
      real++;
      return super.verify(publicKey, message, signature);
    }
  })();
  const pool = new VerifyPool({ size: 0, mainThreadVerifier: counting, verified: new VerifiedSignatures() });
  assert.deepEqual(await pool.verifyBatch(items), expected);
  assert.equal(real, 30);
  assert.deepEqual(await pool.verifyBatch(items), expected, "the same answers from the memo");
  // Only the four items with a 31-byte key are asked again: malformed triples are not remembered
  // (the verifier refuses them by their length alone).
  assert.equal(real, 34, "no real verification of a well-formed triple the second time");
  const good = items[0]!;
  const otherMessage = { ...good, message: new TextEncoder().encode("vote 0, changed") };
  const otherKey = { ...good, publicKey: items[1]!.publicKey };
  assert.deepEqual(await pool.verifyBatch([otherMessage, otherKey, good]), [false, false, true]);
  assert.equal(real, 36, "only the changed triples were verified");
  await pool.close();
});

test("a closed pool refuses work with CRYPTO_POOL_CLOSED, and batches in flight reject", async () => {
  const { items } = makeItems(60);
  const pool = new VerifyPool({ size: 1, mainThreadBelow: 0, verified: null });
  const inFlight = assert.rejects(
    pool.verifyBatch(items),
    (e: unknown) => e instanceof CryptoError && e.code === "CRYPTO_POOL_CLOSED",
  );
  await pool.close();
  await inFlight;
  await assert.rejects(
    pool.verifyBatch(items),
    (e: unknown) => e instanceof CryptoError && e.code === "CRYPTO_POOL_CLOSED",
  );
  await pool.close(); // closing twice is harmless
});

test("a worker that dies fails its batches with CRYPTO_WORKER_FAILED and is replaced", async () => {
  // 200 verifies take ~20 ms, far longer than the kill below takes to land.
  const { items, expected } = makeItems(200);
  const pool = new VerifyPool({ size: 1, mainThreadBelow: 0, verified: null });
  try {
    await pool.warmUp();
    // Reach the private worker to kill it mid-batch, as a crash would.
    const worker = (pool as unknown as { workers: { worker: { terminate(): Promise<number> } }[] })
      .workers[0]!;
    const failed = assert.rejects(
      pool.verifyBatch(items),
      (e: unknown) => e instanceof CryptoError && e.code === "CRYPTO_WORKER_FAILED",
    );
    await worker.worker.terminate();
    await failed;
    assert.deepEqual(await pool.verifyBatch(items), expected, "the next batch runs on a fresh worker");
  } finally {
    await pool.close();
  }
});

test("warmUp starts the workers, and an idle pool does not keep the process alive", async () => {
  const pool = new VerifyPool({ size: 2, mainThreadBelow: 0, verified: null });
  await pool.warmUp();
  const { items, expected } = makeItems(10);
  assert.deepEqual(await pool.verifyBatch(items), expected);
  await pool.close();
});

test("invalid sizes are refused", () => {
  assert.throws(() => new VerifyPool({ size: -1 }), RangeError);
  assert.throws(() => new VerifyPool({ size: 1.5 }), RangeError);
});

const distPool = fileURLToPath(new URL("../../dist/src/crypto/verify-pool.js", import.meta.url));
test("the compiled pool in dist/ starts its compiled worker", {
  skip: existsSync(distPool) ? false : "dist/ not built (npm test builds it)",
}, async () => {
  const compiled = (await import(distPool)) as typeof import("../../src/crypto/verify-pool.js");
  const { items, expected } = makeItems(20);
  const pool = new compiled.VerifyPool({ size: 2, mainThreadBelow: 0 });
  try {
    assert.deepEqual(await pool.verifyBatch(items), expected);
  } finally {
    await pool.close();
  }
});
