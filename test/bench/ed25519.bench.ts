// ed25519 verification figures beside same-run baselines:
// - verifyEd25519 (raw key bytes in, LRU KeyObject cache inside) beside raw node:crypto verify
//   with KeyObjects built beforehand: the cache's overhead should be within ~10%;
// - building the KeyObject on every call (JWK, and DER) to show what the cache saves;
// - @noble/ed25519, the pure-JS alternative.
// Rounds alternate between the contenders so a busy machine hurts both alike; the ratio is the
// median over rounds. Bounded in count and time; never fails on time. Writes bench-results/ed25519.json.
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as noble from "@noble/ed25519";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { ed25519PublicKeyObject, verifyEd25519 } from "../../src/crypto/ed25519-verify.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 7;
const ROUND_MS = 200;
const MAX_PER_ROUND = 20_000;

// 100 validators, each signing a vote-sized message (~110 bytes of sign bytes).
const items = Array.from({ length: 100 }, (_, i) => {
  const pair = keyPairFromSeed(new Uint8Array(32).fill(i + 1));
  const message = new Uint8Array(110).fill(i);
  return { publicKey: pair.publicKey, message, signature: signEd25519(pair.privateKey, message) };
});
const prebuilt: KeyObject[] = items.map((i) => ed25519PublicKeyObject(i.publicKey)!);
const spki = (k: Uint8Array) => Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), k]);

/** Verifies/s of `fn(i)` over the items, run for one round (bounded by time and count). */
function round(fn: (i: number) => boolean): number {
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ROUND_MS && count < MAX_PER_ROUND) {
    for (let i = 0; i < items.length; i++) {
      if (!fn(i)) throw new Error(`signature ${i} did not verify`);
    }
    count += items.length;
    elapsed = performance.now() - start;
  }
  return (count / elapsed) * 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const contenders: Record<string, (i: number) => boolean> = {
  "node:crypto, prebuilt KeyObject (baseline)": (i) =>
    verify(null, items[i]!.message, prebuilt[i]!, items[i]!.signature),
  "verifyEd25519 (cached KeyObject)": (i) =>
    verifyEd25519(items[i]!.publicKey, items[i]!.message, items[i]!.signature),
  "node:crypto, JWK KeyObject per call": (i) =>
    verify(null, items[i]!.message, ed25519PublicKeyObject(items[i]!.publicKey)!, items[i]!.signature),
  "node:crypto, DER KeyObject per call": (i) =>
    verify(
      null,
      items[i]!.message,
      createPublicKey({ key: spki(items[i]!.publicKey), format: "der", type: "spki" }),
      items[i]!.signature,
    ),
};

const rates: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
const ratios: number[] = [];
for (const fn of Object.values(contenders)) round(fn); // warm-up: JIT and the key cache
const entries = Object.entries(contenders);
for (let r = 0; r < ROUNDS; r++) {
  // Rotate the order each round so no contender always runs first (or last) in a round.
  for (let k = 0; k < entries.length; k++) {
    const [name, fn] = entries[(k + r) % entries.length]!;
    rates[name]!.push(round(fn));
  }
  ratios.push(
    rates["verifyEd25519 (cached KeyObject)"]![r]! / rates["node:crypto, prebuilt KeyObject (baseline)"]![r]!,
  );
}

// noble is ~20× slower: a fixed small count.
const nobleStart = performance.now();
let nobleCount = 0;
while (nobleCount < 300 && performance.now() - nobleStart < 1500) {
  const item = items[nobleCount % items.length]!;
  if (!(await noble.verifyAsync(item.signature, item.message, item.publicKey)))
    throw new Error("noble failed");
  nobleCount++;
}
const nobleRate = (nobleCount / (performance.now() - nobleStart)) * 1000;

const baseline = median(rates["node:crypto, prebuilt KeyObject (baseline)"]!);
const result: Record<string, unknown> = {
  unit: "verifies/s",
  rounds: ROUNDS,
  contenders: {} as Record<string, unknown>,
};
console.log("ed25519 verify, 100 keys, 110-byte messages (median of rounds)");
for (const name of Object.keys(contenders)) {
  const r = median(rates[name]!);
  console.log(`  ${name.padEnd(46)} ${r.toFixed(0).padStart(7)} /s   ${(r / baseline).toFixed(2)}× baseline`);
  (result.contenders as Record<string, unknown>)[name] = { perSecond: Math.round(r), ratio: r / baseline };
}
console.log(
  `  ${"@noble/ed25519 verifyAsync".padEnd(46)} ${nobleRate.toFixed(0).padStart(7)} /s   ${(nobleRate / baseline).toFixed(2)}× baseline`,
);
(result.contenders as Record<string, unknown>)["@noble/ed25519"] = {
  perSecond: Math.round(nobleRate),
  ratio: nobleRate / baseline,
};
const ratio = median(ratios);
console.log(
  `verifyEd25519 / prebuilt KeyObject: ${ratio.toFixed(3)}× (median of per-round ratios; aim ≥ 0.9)`,
);
result.ours = Math.round(median(rates["verifyEd25519 (cached KeyObject)"]!));
result.baseline = Math.round(baseline);
result.ratio = ratio;
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "ed25519.json"), `${JSON.stringify(result, null, 2)}\n`);
