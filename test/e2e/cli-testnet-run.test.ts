// `rxbft testnet start|stop|status` on a folder `rxbft testnet` wrote: start runs every node in
// the background (PID files, logs), a second start leaves running nodes alone, status shows
// heights, hashes and peers from each node's RPC, stop --kill is a kill -9 of one node, stop
// ends the rest with SIGTERM; a PID file naming a process that is not that node is never
// signalled; a folder without homes and an unknown --node get clear errors.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli } from "./cli-harness.js";
import { testnetOnFreePorts } from "./network-harness.js";

interface Row {
  name: string;
  pid?: number;
  running: boolean;
  height?: string;
  hash?: string;
  peers?: number;
}

const started = new Set<number>();
after(() => {
  for (const pid of started) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/** Whether a PID is a live process (a zombie left for PID 1 to reap counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function status(dir: string): Promise<Row[]> {
  const out = await runCli(["testnet", "status", "--dir", dir, "--json"]);
  assert.equal(out.code, 0, out.stderr);
  return JSON.parse(out.stdout) as Row[];
}

async function waitForStatus(dir: string, check: (rows: Row[]) => boolean, what: string): Promise<Row[]> {
  const deadline = Date.now() + 60_000;
  let rows: Row[] = [];
  while (Date.now() < deadline) {
    rows = await status(dir);
    if (check(rows)) return rows;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}; last status: ${JSON.stringify(rows)}`);
}

test("testnet start, status, stop --kill of one node, stop of the rest", { timeout: 180_000 }, async () => {
  const net = await testnetOnFreePorts({ validators: 1, fullNodes: 1, prefix: "rxbft-testnet-run-" });
  const start = await runCli(["testnet", "start", "--dir", net.dir, "--proxy_app", "kvstore"], {}, 90_000);
  assert.equal(start.code, 0, start.stderr);
  assert.match(
    start.stdout,
    /^node0 {2}started {2}pid \d+ {2}rpc http:\/\/127\.0\.0\.1:\d+ {2}log .*node0\/node\.log$/m,
  );
  assert.match(start.stdout, /^node1 {2}started {2}pid \d+/m);
  const pids = net.homes.map((h) => Number(readFileSync(join(h, "node.pid"), "utf8")));
  for (const pid of pids) started.add(pid);
  for (const home of net.homes) assert.ok(existsSync(join(home, "node.log")));

  const again = await runCli(["testnet", "start", "--dir", net.dir, "--proxy_app", "kvstore"], {}, 60_000);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`^node0 {2}already running {2}pid ${pids[0]}`, "m"));

  // the validator commits; both nodes see each other
  const rows = await waitForStatus(
    net.dir,
    (r) => Number(r[0]?.height ?? 0) >= 3 && r.every((n) => n.peers === 1),
    "height 3 on node0 and one peer each",
  );
  assert.deepEqual(
    rows.map((r) => [r.name, r.running, r.pid]),
    [
      ["node0", true, pids[0]],
      ["node1", true, pids[1]],
    ],
  );
  assert.match(rows[0]!.hash!, /^[0-9A-F]{64}$/);
  const table = await runCli(["testnet", "status", "--dir", net.dir]);
  assert.match(table.stdout, /^NODE +PID +HEIGHT +PEERS +CATCHING_UP +LAST_BLOCK_HASH +RPC$/m);
  assert.match(table.stdout, new RegExp(`^node0 +${pids[0]} +\\d+ +1 +false +[0-9A-F]{64} +http://`, "m"));

  const kill = await runCli(["testnet", "stop", "--dir", net.dir, "--node", "1", "--kill"]);
  assert.equal(kill.code, 0, kill.stderr);
  assert.equal(kill.stdout.trim(), `node1  killed  pid ${pids[1]}`);
  assert.equal(existsSync(join(net.homes[1]!, "node.pid")), false);
  const after1 = await status(net.dir);
  assert.equal(after1[1]!.running, false);
  assert.equal(after1[0]!.running, true);

  const stop = await runCli(["testnet", "stop", "--dir", net.dir, "--grace", "20"], {}, 60_000);
  assert.equal(stop.code, 0, stop.stderr);
  assert.equal(stop.stdout.trim(), `node0  stopped  pid ${pids[0]}\nnode1  not running`);
  assert.equal(alive(pids[0]!), false, "node0's process is gone");
  // a clean stop: the node logged its shutdown
  assert.match(readFileSync(join(net.homes[0]!, "node.log"), "utf8"), /committed block/);
});

test("a PID file naming another process is not trusted, and bad folders or nodes are named", {
  timeout: 60_000,
}, async () => {
  const net = await testnetOnFreePorts({ validators: 1, prefix: "rxbft-testnet-stale-" });
  // our own PID: alive, but not an rxbft node of that home
  writeFileSync(join(net.homes[0]!, "node.pid"), `${process.pid}\n`);
  const rows = await status(net.dir);
  assert.deepEqual(rows, [{ name: "node0", running: false }]);
  const stop = await runCli(["testnet", "stop", "--dir", net.dir]);
  assert.equal(stop.code, 0, stop.stderr);
  assert.equal(stop.stdout.trim(), "node0  not running");

  const unknown = await runCli(["testnet", "status", "--dir", net.dir, "--node", "node7"]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /flag --node: "node7" is not a node of .* \(it has node0\)/);
  const empty = await runCli(["testnet", "start", "--dir", join(net.dir, "config")]);
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /no such directory|holds no node home/);
});

test("testnet start names a node that exits during start-up, with the end of its log", {
  timeout: 60_000,
}, async () => {
  const net = await testnetOnFreePorts({ validators: 1, prefix: "rxbft-testnet-fail-" });
  // a --proxy_app the node refuses: it exits at once, its error in its log
  const out = await runCli(["testnet", "start", "--dir", net.dir, "--proxy_app", "bogus"], {}, 50_000);
  assert.equal(out.code, 1, out.stdout);
  assert.match(out.stderr, /node0: the node exited during start-up; the end of .*node0\/node\.log:/);
  assert.match(out.stderr, /flag --proxy_app: expected an ABCI address/);
  assert.equal(existsSync(join(net.homes[0]!, "node.pid")), false);
});
