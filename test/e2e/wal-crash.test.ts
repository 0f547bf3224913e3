// kill -9 at random moments while a child appends to the log; every reopen must repair the tail
// if needed and hold every record the child reported as synced, in order, with no gaps.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Wal } from "../../src/wal/wal.js";
import { tempFolder } from "./cli-harness.js";

const WRITER = fileURLToPath(new URL("../fixtures/wal/crash-writer.ts", import.meta.url));
const KILLS = 32;
const OPTIONS = { maxRecordBytes: 64 * 1024, maxSegmentBytes: 256 * 1024, maxSegments: 4 };

interface RunResult {
  synced: number;
  repaired: boolean;
}

/**
 * Starts the writer and kills it with SIGKILL `delayMs` after it said "ready" (or after its start
 * when `fromSpawn`, to land in the open and repair); reports what it said before dying.
 */
function runAndKill(dir: string, seed: number, delayMs: number, fromSpawn: boolean): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WRITER, dir, String(seed)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let synced = -1;
    let repaired = false;
    let stderr = "";
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith("synced ")) synced = Math.max(synced, Number(line.slice(7)));
        if (line.startsWith("repaired ")) repaired = true;
        if (line.startsWith("ready ") && !fromSpawn) timer = setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    let timer = fromSpawn ? setTimeout(() => child.kill("SIGKILL"), delayMs) : undefined;
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (signal !== "SIGKILL" && code !== 0) reject(new Error(`writer exited with ${code}: ${stderr}`));
      else resolve({ synced, repaired });
    });
  });
}

test(`the log keeps every synced record across ${KILLS} kill -9 at random moments`, {
  timeout: 120_000,
}, async (t) => {
  const dir = join(tempFolder("rxbft-wal-crash-"), "cs.wal");
  let state = 0x2545f491;
  const random = (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  let maxSynced = -1;
  let repairs = 0;
  let tornByHand = 0;
  let killedWhileWriting = 0;
  for (let kill = 0; kill < KILLS; kill++) {
    // One round in four kills during start-up (open, repair, reading the log back); the others
    // during appends, flushes and syncs.
    const duringStart = kill % 4 === 1;
    const result = await runAndKill(
      dir,
      kill + 1,
      duringStart ? 200 + random(500) : random(250),
      duringStart,
    );
    if (result.repaired) repairs++;
    if (result.synced > maxSynced) killedWhileWriting++;
    maxSynced = Math.max(maxSynced, result.synced);

    // Every third round also simulates a torn write of the next record (a power cut mid-write):
    // a partial frame after the end. It must be cut without losing anything synced.
    if (kill % 3 === 2) {
      const last = readdirSync(dir).sort().at(-1);
      if (last) {
        const partial = Buffer.alloc(8 + random(40), 0x5a);
        partial.writeUInt32BE(500, 0);
        appendFileSync(join(dir, last), partial);
        tornByHand++;
      }
    }

    const wal = await Wal.open(dir, OPTIONS);
    if (wal.repair) repairs++;
    let previous: number | undefined;
    let previousHeight = -1n;
    for await (const entry of wal.readAll()) {
      if (entry.kind === "end-height") {
        assert.ok(
          entry.height > previousHeight,
          `markers increase (${entry.height} after ${previousHeight})`,
        );
        previousHeight = entry.height;
        continue;
      }
      const seq = Number((entry.input as { seq: bigint }).seq);
      if (previous !== undefined)
        assert.equal(seq, previous + 1, `records in order without gaps (kill ${kill})`);
      previous = seq;
    }
    assert.ok(
      (previous ?? -1) >= maxSynced,
      `kill ${kill}: the log ends at ${previous} but ${maxSynced} was reported synced`,
    );
    await wal.close();
  }
  t.diagnostic(
    `${killedWhileWriting} kills after new syncs, ${repairs} repairs, last synced record ${maxSynced}`,
  );
  assert.ok(
    killedWhileWriting >= KILLS / 2,
    `most kills land while the writer appends (${killedWhileWriting})`,
  );
  assert.ok(
    repairs >= tornByHand,
    `torn tails were repaired (${repairs} repairs, ${tornByHand} torn by hand)`,
  );
});
