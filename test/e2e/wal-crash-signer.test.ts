// kill -9 at random moments while a child runs a validator's signing path (log, signer, log,
// broadcast). Across all restarts: every step gets one signature only, however often it is asked
// again; everything broadcast is in the log and covered by the signer's state as the next start
// sees it (the later of its file and the log's signer record); a conflicting request after a
// restart is refused.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { signedAfter, signStateFromRecord } from "../../src/privval/state-from-log.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  readPrivValidatorState,
  writePrivValidatorState,
} from "../../src/types/key-file-priv-validator-state.js";
import { readWal } from "../../src/wal/log-reader.js";
import { scanLog } from "../../src/wal/log-scan.js";
import { tempFolder } from "./cli-harness.js";

const WRITER = fileURLToPath(new URL("../fixtures/wal/signer-writer.ts", import.meta.url));
const KILLS = 20;

function runAndKill(dir: string, statePath: string, delayMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WRITER, dir, statePath], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: string[] = [];
    let buffered = "";
    let stderr = "";
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split("\n");
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        if (line.startsWith("ready ")) timer = setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (signal !== "SIGKILL") reject(new Error(`signer child exited with ${code}: ${stderr}`));
      else resolve(lines);
    });
  });
}

test(`the signing path survives ${KILLS} kill -9 without a conflicting signature`, {
  timeout: 120_000,
}, async (t) => {
  const home = tempFolder("rxbft-signer-crash-");
  const dir = join(home, "cs.wal");
  const statePath = join(home, "priv_validator_state.json");
  writePrivValidatorState(statePath, INITIAL_PRIV_VALIDATOR_STATE);
  let state = 0x1234567;
  const random = (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  // (height/round/type) -> the one signature and timestamp ever broadcast for it.
  const broadcast = new Map<string, string>();
  let resent = 0;
  let refusals = 0;
  let lastSent: { height: bigint; type: number } | undefined;
  for (let kill = 0; kill < KILLS; kill++) {
    const lines = await runAndKill(dir, statePath, random(400));
    for (const line of lines) {
      assert.ok(!line.startsWith("CONFLICT-SIGNED") && !line.startsWith("ERROR"), `kill ${kill}: ${line}`);
      if (line === "refused") refusals++;
      if (!line.startsWith("sent ")) continue;
      const [, h, r, type, signature, time] = line.split(" ");
      const step = `${h}/${r}/${type}`;
      const seen = broadcast.get(step);
      if (seen !== undefined) {
        resent++;
        assert.equal(`${signature} ${time}`, seen, `kill ${kill}: ${step} was signed twice differently`);
      }
      broadcast.set(step, `${signature} ${time}`);
      lastSent = { height: BigInt(h!), type: Number(type) };
    }
    // Whatever was broadcast is covered by the signer's state on disk: the file, or the log's
    // record when the file had not caught up yet (the next start rewrites the file from it).
    let file = readPrivValidatorState(statePath);
    const signed = (await scanLog(dir, 64 * 1024, "read-only")).signed;
    if (signed !== undefined) {
      const fromLog = signStateFromRecord(signed.payload, dir);
      if (signedAfter(fromLog, file)) file = fromLog;
    }
    if (lastSent) {
      const stateStep = BigInt(file.height) * 4n + BigInt(file.step);
      const sentStep = lastSent.height * 4n + BigInt(lastSent.type + 1);
      assert.ok(
        stateStep >= sentStep,
        `kill ${kill}: state ${file.height}/${file.step} behind broadcast ${lastSent.height}`,
      );
    }
  }
  // Everything broadcast is in the log (the kept segments hold every height here).
  const logged = new Map<string, string>();
  for await (const entry of readWal(dir)) {
    if (entry.kind !== "input") continue;
    const input = entry.input as {
      type: string;
      vote?: { height: bigint; round: number; type: number; signature: Uint8Array };
    };
    if (input.type !== "VoteSigned" || !input.vote) continue;
    const v = input.vote;
    logged.set(`${v.height}/${v.round}/${v.type}`, Buffer.from(v.signature).toString("hex"));
  }
  for (const [step, value] of broadcast) {
    assert.equal(
      logged.get(step),
      value.split(" ")[0],
      `broadcast ${step} is in the log with the same signature`,
    );
  }
  t.diagnostic(
    `${broadcast.size} steps broadcast, ${resent} asked again after a crash, ${refusals} conflicting requests refused`,
  );
  assert.ok(broadcast.size > KILLS, "the child got to sign");
  assert.ok(refusals >= KILLS - 2, `conflicting requests were made and refused (${refusals})`);
});
