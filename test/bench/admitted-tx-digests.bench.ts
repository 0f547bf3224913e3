// CPU per peer tx of the memos that find a tx's digests again by its bytes
// (src/wire/admitted-tx-digests.ts), as a validator of four uses them: the mempool reactor looks
// each peer copy up and remembers the first (16,384 entries), the admitted digests' memo remembers
// every admitted tx (32,768 entries) and the data hash of a peer's block looks them up a block
// later. 300,000 fresh 90-byte txs (the network bench's `key=value` size), each sent by three
// peers (one lookup + remember, two lookups that hit), remembered as admitted, and looked up again
// 6,000 txs later (a block). User + system CPU (process.cpuUsage) per tx, median of 7 rounds.
// ADMITTED_BASE=<clone> makes it an A/B in one process: that clone's src/wire/admitted-tx-digests.ts
// and ours run in alternated rounds, and the last line puts ours beside the base's as a ratio:
//   flock /tmp/rxbft-bench.lock env ADMITTED_BASE=/tmp/b-base node --import tsx test/bench/admitted-tx-digests.bench.ts
// Never fails on time.
import { join } from "node:path";
import * as ours from "../../src/wire/admitted-tx-digests.js";

type Module = typeof ours;
const BASE = process.env.ADMITTED_BASE;
const TXS = 300_000;
const BLOCK = 6_000;
const ROUNDS = 7;

const txs: Uint8Array[] = [];
for (let i = 0; i < TXS; i++) {
  const key = `netb-${i.toString(36)}-${(i * 2654435761) >>> 0}`;
  txs.push(Buffer.from(`${key}=${"v".repeat(90 - key.length - 1)}`));
}
const copies = txs.map((tx) => new Uint8Array(tx));
const seconds = txs.map((tx) => new Uint8Array(tx));
const inBlock = txs.map((tx) => new Uint8Array(tx));

/** µs of CPU per tx for one pass of the peer path's lookups and entries over every tx. */
function round(m: Module): number {
  const keyed = "ADMITTED_DIGESTS_MAX_PROBES" in m;
  const peer = new m.AdmittedTxDigests(16_384, 16 * 1024 * 1024);
  const admitted = new m.AdmittedTxDigests(32_768, 32 * 1024 * 1024);
  let hits = 0;
  const start = process.cpuUsage();
  for (let i = 0; i < TXS; i++) {
    const tx = copies[i]!;
    const digests = { tx };
    // The key computed once and handed on, as the reactor does; a memo that takes no key (the
    // base's) computes its own in each call, as its callers had it do.
    const key = keyed ? m.bytesKey(tx) : undefined;
    if (peer.of(tx, key) === undefined) peer.remember(digests, key);
    admitted.remember(digests, key);
    if (peer.of(seconds[i]!) !== undefined) hits++;
    if (i >= 100 && peer.of(txs[i - 100]!) !== undefined) hits++;
    if (i >= BLOCK && admitted.of(inBlock[i - BLOCK]!) !== undefined) hits++;
  }
  const used = process.cpuUsage(start);
  if (hits < 2.9 * TXS) throw new Error(`only ${hits} hits: the memo lost entries it should keep`);
  return (used.user + used.system) / TXS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base: Module | undefined =
  BASE === undefined ? undefined : await import(join(BASE, "src/wire/admitted-tx-digests.ts"));
round(ours);
if (base !== undefined) round(base);
const oursRounds: number[] = [];
const baseRounds: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  if (base !== undefined) baseRounds.push(round(base));
  oursRounds.push(round(ours));
}
const fmt = (xs: number[]) => `${median(xs).toFixed(3)} µs/tx [${xs.map((x) => x.toFixed(2)).join(", ")}]`;
console.log(`ours ${fmt(oursRounds)}`);
if (base !== undefined) {
  console.log(`base ${fmt(baseRounds)}`);
  console.log(`ours / base: ${(median(oursRounds) / median(baseRounds)).toFixed(2)}×`);
}
