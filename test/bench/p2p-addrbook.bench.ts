// Address book and switch figures beside same-run baselines:
// - PEX answers (250 addresses each) filed into a growing book (validity and strict checks,
//   group keys, SHA-256 bucket index, immutable buckets) up to 10,000 addresses, beside the same
//   addresses set into a plain Map by id (the least a book can do);
// - the switch reducer deciding on 1,000 inbound sockets opened at once (admit or refuse),
//   beside a loop that only counts them against the limit.
// Bounded in count and time; never fails on time. Writes bench-results/p2p-addrbook.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { addAddress, emptyBook } from "../../src/p2p/addrbook/index.js";
import type { NetAddress } from "../../src/p2p/net-address.js";
import { initialSwitchState, randomFrom, switchReducer } from "../../src/p2p/switch/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ADDRESSES = 10_000;
const ROUNDS = 3;

const address = (n: number): NetAddress => ({
  id: n.toString(16).padStart(40, "0"),
  ip: `${11 + (n % 200)}.${(n >> 8) & 255}.${n & 255}.1`,
  port: 26656,
});
const addresses = Array.from({ length: ADDRESSES }, (_, i) => address(i + 1));
const sources = Array.from({ length: ADDRESSES / 250 }, (_, i) => address(900_000 + i));

function book(): number {
  let b = emptyBook("0123456789abcdef01234567", true);
  const random = randomFrom(1);
  const start = performance.now();
  for (let i = 0; i < addresses.length; i++)
    b = addAddress(b, addresses[i]!, sources[Math.floor(i / 250)]!, 0, random).book;
  const ms = performance.now() - start;
  if (b.addrs.size < ADDRESSES / 2) throw new Error(`book holds only ${b.addrs.size}`);
  return ADDRESSES / (ms / 1000);
}

function mapBaseline(): number {
  const m = new Map<string, NetAddress>();
  const start = performance.now();
  for (const a of addresses) m.set(a.id, a);
  return ADDRESSES / ((performance.now() - start) / 1000);
}

function flood(): number {
  let s = initialSwitchState({
    ourId: "f".repeat(40),
    maxInbound: 40,
    maxOutbound: 10,
    unconditionalIds: new Set(),
    allowDuplicateIp: true,
    handshakeTimeoutMs: 20_000,
    dialTimeoutMs: 3_000,
    persistentMaxDialPeriodMs: 0,
  });
  const start = performance.now();
  let closed = 0;
  for (let i = 0; i < 1000; i++) {
    const r = switchReducer(s, {
      type: "InboundConnected",
      time: 1,
      connId: `a${i}`,
      ip: "127.0.0.1",
      port: i,
    });
    s = r.state;
    if (r.effects[0]!.type === "CloseConnection") closed++;
  }
  if (closed !== 960) throw new Error(`closed ${closed}`);
  return 1000 / ((performance.now() - start) / 1000);
}

function countBaseline(): number {
  const start = performance.now();
  let open = 0;
  let closed = 0;
  for (let i = 0; i < 1000; i++) {
    if (open < 40) open++;
    else closed++;
  }
  if (closed !== 960) throw new Error("baseline");
  return 1000 / ((performance.now() - start) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const run = (f: () => number) => median(Array.from({ length: ROUNDS }, f));

const results = {
  addrbook_addresses_per_s: run(book),
  baseline_map_set_per_s: run(mapBaseline),
  switch_inbound_decisions_per_s: run(flood),
  baseline_count_per_s: run(countBaseline),
};
const fmt = (n: number) => Math.round(n).toLocaleString("en");
console.log(
  `address book: ${fmt(results.addrbook_addresses_per_s)} addresses/s filed vs Map.set ${fmt(results.baseline_map_set_per_s)}/s ` +
    `(ratio ${(results.addrbook_addresses_per_s / results.baseline_map_set_per_s).toFixed(4)}; a PEX answer of 250 takes ${((250 / results.addrbook_addresses_per_s) * 1000).toFixed(2)} ms)`,
);
console.log(
  `switch: ${fmt(results.switch_inbound_decisions_per_s)} inbound decisions/s vs a bare counter ${fmt(results.baseline_count_per_s)}/s ` +
    `(ratio ${(results.switch_inbound_decisions_per_s / results.baseline_count_per_s).toFixed(4)}; 1,000 sockets decided in ${((1000 / results.switch_inbound_decisions_per_s) * 1000).toFixed(2)} ms)`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "p2p-addrbook.json"), `${JSON.stringify(results, null, 2)}\n`);
