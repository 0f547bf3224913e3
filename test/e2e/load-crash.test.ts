// kill -9 under load (issue 19): wrk sends unique txs with broadcast_tx_async at full rate while
// one client sends broadcast_tx_commit one after the other; the node is killed with SIGKILL at a
// random moment and restarted, LOAD_CRASH_KILLS times (CI: 3; the full run: 20). After
// each restart: every height the node reported committed is still there with the same hash (no
// height lost, none committed twice differently), and every tx a client was told was committed
// (broadcast_tx_commit answered with its height) is found by `tx` at that height. Needs wrk
// (test/system/packages.txt); says so and skips without it.
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const KILLS = Number(process.env.LOAD_CRASH_KILLS ?? 3);
const LUA = fileURLToPath(new URL("../bench/wrk/broadcast-tx.lua", import.meta.url));
const hasWrk = spawnSync("wrk", ["--version"]).error === undefined;

/** A small deterministic generator, so a failing run can be repeated from its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Told {
  hash: string;
  height: string;
}

test(`${KILLS} kill -9 during a wrk load: no committed tx and no height lost`, {
  timeout: 120_000 + KILLS * 40_000,
  skip: hasWrk ? false : "wrk is not on PATH (apt-get install wrk; see test/system/packages.txt)",
}, async () => {
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
  const rand = random(seed);
  const home = await initFastHome({ timeout_commit: "200ms" }, "rxbft-load-crash-");
  const hashes = new Map<bigint, string>();
  const told: Told[] = [];
  const check = async (node: NodeProcess, run: number) => {
    // Every height reported committed by any earlier run: same hash now.
    for (const [height, hash] of hashes) {
      const body = (await node.rpc(`/block?height=${height}`)) as {
        result?: { block_id: { hash: string } };
        error?: unknown;
      };
      assert.equal(
        body.result?.block_id.hash,
        hash,
        `seed ${seed} run ${run}: height ${height} ${JSON.stringify(body.error ?? "")}`,
      );
    }
    // Every tx a client was told was committed: found at its height.
    for (const t of told) {
      const body = (await node.rpc(`/tx?hash=0x${t.hash}`)) as {
        result?: { height: string };
        error?: unknown;
      };
      assert.equal(
        body.result?.height,
        t.height,
        `seed ${seed} run ${run}: tx ${t.hash} told committed at ${t.height}: ${JSON.stringify(body.error ?? "")}`,
      );
    }
  };
  let wrk: ChildProcess | undefined;
  try {
    for (let run = 0; run <= KILLS; run++) {
      const node = new NodeProcess(home);
      await node.waitFor(
        () => node.rpcUrl !== undefined && node.height > 0n,
        `run ${run}: RPC and a block`,
        60_000,
      );
      await check(node, run);
      if (run === KILLS) {
        node.kill("SIGKILL");
        await node.exited;
        break;
      }
      const url = node.rpcUrl!;
      wrk = spawn(
        "wrk",
        ["-t", "1", "-c", "16", "-d", "30s", "-s", LUA, url, "--", "broadcast_tx_async", `k${run}`, "0"],
        { stdio: "ignore" },
      );
      // One client told of commits, as long as the node lives.
      let alive = true;
      const committer = (async () => {
        for (let i = 0; alive; i++) {
          const tx = `commit-${run}-${i}=`.padEnd(100, "c");
          try {
            const res = await fetch(`${url}/broadcast_tx_commit?tx=%22${tx}%22`);
            const body = (await res.json()) as {
              result?: {
                hash: string;
                height: string;
                check_tx: { code: number };
                deliver_tx: { code: number };
              };
            };
            const r = body.result;
            if (r && Number(r.check_tx.code) === 0 && Number(r.deliver_tx.code) === 0 && r.height !== "0") {
              told.push({ hash: r.hash, height: r.height });
            }
          } catch {
            return; // the node is gone
          }
        }
      })();
      const startHeight = node.height;
      await node.waitFor(() => node.height >= startHeight + 2n, `run ${run}: two heights under load`, 60_000);
      await new Promise((r) => setTimeout(r, 300 + rand() * 2500));
      node.kill("SIGKILL");
      await node.exited;
      alive = false;
      wrk.kill("SIGKILL");
      await committer;
      for (const c of node.committed) {
        const known = hashes.get(c.height);
        assert.ok(
          known === undefined || known === c.hash,
          `seed ${seed}: height ${c.height} as ${known} and ${c.hash}`,
        );
        hashes.set(c.height, c.hash);
      }
    }
    console.log(
      `seed ${seed}: ${KILLS} kills under load, ${hashes.size} heights and ${told.length} txs told committed, none lost`,
    );
    assert.ok(told.length > 0, "some broadcast_tx_commit answered before the kills");
    assert.ok(hashes.size > KILLS * 2, "heights committed under load");
  } finally {
    wrk?.kill("SIGKILL");
  }
});
