// Secret-connection figures beside same-run baselines:
// - seal+open throughput (MB/s) of our frames beside raw node:crypto ChaCha20-Poly1305 sealing and
//   opening the same 1028-byte frames with the same per-frame nonces (aim ≥ 0.7×);
// - the same bytes through two SecretConnections on loopback beside plain TCP loopback;
// - full upgradeConnection handshake on loopback (aim < 20 ms) beside a plain TCP connect plus
//   one round trip.
// Bounded in count and time; never fails on time. Writes bench-results/p2p-secret-connection.json.
import { createCipheriv, createDecipheriv } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FrameOpener, FrameSealer } from "../../src/p2p/secret-connection/frames.js";
import { makeSecretConnection } from "../../src/p2p/secret-connection/secret-connection.js";
import { upgradeConnection } from "../../src/p2p/upgrade.js";
import { socketPair, testNode, upgradeOptions } from "../unit/p2p-test-peers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const MB = 1024 * 1024;
const PAYLOAD = new Uint8Array(4 * MB).map((_, i) => i & 0xff);
const ROUNDS = 3;
const key = new Uint8Array(32).fill(5);

function ourSealOpen(): void {
  const sealed = new FrameSealer(key).seal(PAYLOAD);
  const opener = new FrameOpener(key);
  for (let at = 0; at < sealed.length; at += 1044) opener.open(sealed.subarray(at, at + 1044));
}

function rawSealOpen(): void {
  const nonce = Buffer.alloc(12);
  const frame = Buffer.alloc(1028);
  const frames: Buffer[] = [];
  for (let i = 0, n = 0; i < PAYLOAD.length; i += 1024, n++) {
    frame.writeUInt32LE(1024, 0);
    frame.set(PAYLOAD.subarray(i, i + 1024), 4);
    nonce.writeUInt32LE(n, 4);
    const c = createCipheriv("chacha20-poly1305", key, nonce, { authTagLength: 16 });
    const body = c.update(frame);
    c.final();
    frames.push(Buffer.concat([body, c.getAuthTag()]));
  }
  for (let n = 0; n < frames.length; n++) {
    nonce.writeUInt32LE(n, 4);
    const d = createDecipheriv("chacha20-poly1305", key, nonce, { authTagLength: 16 });
    d.setAuthTag(frames[n].subarray(1028));
    d.update(frames[n].subarray(0, 1028));
    d.final();
  }
}

function mbPerSecond(fn: () => void): number {
  fn(); // warm up
  const start = performance.now();
  let bytes = 0;
  while (performance.now() - start < 400) {
    fn();
    bytes += PAYLOAD.length;
  }
  return bytes / MB / ((performance.now() - start) / 1000);
}

let ours = 0;
let raw = 0;
for (let r = 0; r < ROUNDS; r++) {
  ours = Math.max(ours, mbPerSecond(ourSealOpen));
  raw = Math.max(raw, mbPerSecond(rawSealOpen));
}

/** Sends `total` bytes a → b through the given writer and waits until b has them all. */
async function loopbackMbPerSecond(secret: boolean, total: number): Promise<number> {
  const pair = await socketPair();
  let write: (d: Uint8Array) => boolean;
  let onData: (l: (c: Uint8Array) => void) => void;
  let drain: (l: () => void) => void;
  if (secret) {
    const n = testNode();
    const [a, b] = await Promise.all([
      makeSecretConnection(pair.a, n.privateKey, 3000),
      makeSecretConnection(pair.b, testNode().privateKey, 3000),
    ]);
    write = (d) => a.write(d);
    onData = (l) => b.onData(l);
    drain = (l) => a.onDrain(l);
  } else {
    write = (d) => pair.a.write(d);
    onData = (l) => pair.b.on("data", l);
    drain = (l) => pair.a.on("drain", l);
  }
  const chunk = PAYLOAD.subarray(0, 64 * 1024);
  const start = performance.now();
  await new Promise<void>((resolve) => {
    let received = 0;
    onData((c) => {
      received += c.length;
      if (received >= total) resolve();
    });
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!write(chunk)) return;
      }
    };
    drain(pump);
    pump();
  });
  const seconds = (performance.now() - start) / 1000;
  pair.close();
  return total / MB / seconds;
}

const loopSecret = Math.max(
  await loopbackMbPerSecond(true, 32 * MB),
  await loopbackMbPerSecond(true, 32 * MB),
);
const loopPlain = Math.max(
  await loopbackMbPerSecond(false, 32 * MB),
  await loopbackMbPerSecond(false, 32 * MB),
);

async function median(fn: () => Promise<void>, runs: number): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)];
}

const na = testNode();
const nb = testNode();
const cpuBefore = process.cpuUsage();
let handshakes = 0;
const handshakeMs = await median(async () => {
  handshakes++;
  const pair = await socketPair();
  const [a, b] = await Promise.all([
    upgradeConnection(pair.a, upgradeOptions(na, true, { dialledId: nb.id })),
    upgradeConnection(pair.b, upgradeOptions(nb, false)),
  ]);
  a.close("bench");
  b.close("bench");
}, 30);
const cpu = process.cpuUsage(cpuBefore);
/** CPU per handshake (both sides run in this process): robust when the machine is shared. */
const handshakeCpuMs = (cpu.user + cpu.system) / 1000 / handshakes;

const echo = createServer((s) => s.on("data", (d) => s.write(d)));
await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
const echoPort = (echo.address() as { port: number }).port;
const tcpMs = await median(
  () =>
    new Promise<void>((resolve) => {
      const s: Socket = connect(echoPort, "127.0.0.1", () => s.write("x"));
      s.on("data", () => {
        s.destroy();
        resolve();
      });
    }),
  30,
);
echo.close();

const results = {
  sealOpenMBps: ours,
  rawChaCha20Poly1305SealOpenMBps: raw,
  sealOpenRatio: ours / raw,
  loopbackSecretConnectionMBps: loopSecret,
  loopbackPlainTcpMBps: loopPlain,
  loopbackRatio: loopSecret / loopPlain,
  handshakeMedianMs: handshakeMs,
  handshakeCpuMsBothSides: handshakeCpuMs,
  tcpConnectRoundTripMedianMs: tcpMs,
};
console.log(
  `secret connection seal+open: ${ours.toFixed(0)} MB/s  vs raw node:crypto chacha20-poly1305 on the same frames ${raw.toFixed(0)} MB/s  (ratio ${results.sealOpenRatio.toFixed(2)})`,
);
console.log(
  `loopback through two secret connections: ${loopSecret.toFixed(0)} MB/s  vs plain TCP loopback ${loopPlain.toFixed(0)} MB/s  (ratio ${results.loopbackRatio.toFixed(2)})`,
);
console.log(
  `handshake (secret connection + NodeInfo, both sides, loopback): median ${handshakeMs.toFixed(2)} ms  vs TCP connect + one round trip ${tcpMs.toFixed(2)} ms  (ratio ${(handshakeMs / tcpMs).toFixed(1)})`,
);
console.log(`handshake CPU time, both sides together: ${handshakeCpuMs.toFixed(2)} ms per connection`);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(
  join(root, "bench-results", "p2p-secret-connection.json"),
  `${JSON.stringify(results, null, 2)}\n`,
);
