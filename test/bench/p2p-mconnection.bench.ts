// MConnection figures beside a same-run baseline: 200-byte messages per second through a real
// upgraded connection (secret connection + MConnection on loopback: split into packets,
// scheduled by priority, batched, sealed, opened, reassembled) beside the same messages written
// straight to a SecretConnection as delimited messages (no multiplexing, no batching).
// Measured with send_rate lifted (the default 5,120,000 B/s caps 200-byte messages at about
// 24,800/s by design) and once with the default config for reference.
// Bounded in count and time; never fails on time. Writes bench-results/p2p-mconnection.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ByteQueue, peekUvarint } from "../../src/p2p/byte-queue.js";
import { DEFAULT_MCONNECTION_CONFIG } from "../../src/p2p/mconnection/mconnection.js";
import { makeSecretConnection } from "../../src/p2p/secret-connection/secret-connection.js";
import type { ChannelDescriptor, MConnectionConfig } from "../../src/p2p/types.js";
import { upgradeConnection } from "../../src/p2p/upgrade.js";
import { socketPair, testNode, upgradeOptions } from "../unit/p2p-test-peers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const MESSAGES = 50_000;
const message = new Uint8Array(200).fill(0x42);
const CHANNEL = 0x70;
const channels: ChannelDescriptor[] = [
  { id: CHANNEL, priority: 5, sendQueueCapacity: 1000, recvBufferCapacity: 4096, recvMessageCapacity: 4096 },
];

async function viaMConnection(config: Partial<MConnectionConfig>, count: number): Promise<number> {
  const pair = await socketPair();
  const na = testNode({ channels: Uint8Array.of(CHANNEL) });
  const nb = testNode({ channels: Uint8Array.of(CHANNEL) });
  const [a, b] = await Promise.all([
    upgradeConnection(pair.a, upgradeOptions(na, true, { channels, mconnection: config })),
    upgradeConnection(pair.b, upgradeOptions(nb, false, { channels, mconnection: config })),
  ]);
  const start = performance.now();
  await new Promise<void>((resolve) => {
    let received = 0;
    b.onMessage(() => {
      if (++received === count) resolve();
    });
    let sent = 0;
    const pump = () => {
      while (sent < count && a.send(CHANNEL, message)) sent++;
      if (sent < count) setImmediate(pump);
    };
    pump();
  });
  const rate = count / ((performance.now() - start) / 1000);
  a.close("bench");
  b.close("bench");
  return rate;
}

async function viaSecretConnection(count: number): Promise<number> {
  const pair = await socketPair();
  const [a, b] = await Promise.all([
    makeSecretConnection(pair.a, testNode().privateKey, 3000),
    makeSecretConnection(pair.b, testNode().privateKey, 3000),
  ]);
  const start = performance.now();
  await new Promise<void>((resolve) => {
    let received = 0;
    const queue = new ByteQueue();
    b.onData((chunk) => {
      queue.push(chunk);
      for (;;) {
        const prefix = peekUvarint(queue);
        if (prefix === undefined || prefix === "overflow" || queue.length < prefix.length + prefix.value)
          break;
        queue.take(prefix.length + prefix.value);
        if (++received === count) resolve();
      }
    });
    let sent = 0;
    const pump = () => {
      while (sent < count) {
        sent++;
        if (!a.writeMessage(message)) return;
      }
    };
    a.onDrain(pump);
    pump();
  });
  const rate = count / ((performance.now() - start) / 1000);
  a.close();
  b.close();
  return rate;
}

const unlimited = { ...DEFAULT_MCONNECTION_CONFIG, sendRate: 1e12, recvRate: 1e12, flushThrottleMs: 10 };
let ours = 0;
let baseline = 0;
for (let r = 0; r < 2; r++) {
  ours = Math.max(ours, await viaMConnection(unlimited, MESSAGES));
  baseline = Math.max(baseline, await viaSecretConnection(MESSAGES / 5));
}
const defaults = await viaMConnection(DEFAULT_MCONNECTION_CONFIG, 20_000);

const results = {
  mconnection200BytePerSecond: Math.round(ours),
  secretConnectionDelimited200BytePerSecond: Math.round(baseline),
  ratio: ours / baseline,
  mconnectionDefaultRate200BytePerSecond: Math.round(defaults),
};
console.log(
  `MConnection, 200-byte messages: ${results.mconnection200BytePerSecond.toLocaleString()}/s  vs the same messages as one secret-connection write each ${results.secretConnectionDelimited200BytePerSecond.toLocaleString()}/s  (ratio ${results.ratio.toFixed(2)})`,
);
console.log(
  `MConnection with v0.34's default send_rate 5,120,000 B/s: ${results.mconnectionDefaultRate200BytePerSecond.toLocaleString()}/s (cap ≈ 24,800/s)`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "p2p-mconnection.json"), `${JSON.stringify(results, null, 2)}\n`);
