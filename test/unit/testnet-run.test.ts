// The pure parts of `rxbft testnet start|stop|status`: which directories are node homes and in
// what order (node10 after node9), picking nodes by name or number, clear errors, PID files
// that do not name a live node of that home, and the status table's layout.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findTestnetHomes, formatStatusTable, runningPid } from "../../src/cli/testnet-run.js";
import { tempFolder } from "../fixtures/temp-folder.js";

function folder(names: string[]): string {
  const dir = tempFolder("rxbft-testnet-run-unit-");
  for (const name of names) {
    mkdirSync(join(dir, name, "config"), { recursive: true });
    writeFileSync(join(dir, name, "config", "genesis.json"), "{}");
  }
  mkdirSync(join(dir, "not-a-home"));
  return dir;
}

test("node homes are the sub-directories with config/genesis.json, in numeric order", () => {
  const dir = folder(["node10", "node2", "node0", "node1", "node9"]);
  assert.deepEqual(
    findTestnetHomes(dir).map((h) => h.name),
    ["node0", "node1", "node2", "node9", "node10"],
  );
  assert.equal(findTestnetHomes(dir)[0]!.home, join(dir, "node0"));
});

test("--node picks by directory name or number, once each, in the order given", () => {
  const dir = folder(["node0", "node1", "node2"]);
  assert.deepEqual(
    findTestnetHomes(dir, ["2", "node0", "node2"]).map((h) => h.name),
    ["node2", "node0"],
  );
  assert.throws(
    () => findTestnetHomes(dir, ["7"]),
    /flag --node: "7" is not a node of .* \(it has node0, node1, node2\)/,
  );
});

test("a folder that is missing or holds no home is named", () => {
  const dir = folder([]);
  assert.throws(() => findTestnetHomes(join(dir, "absent")), /absent: no such directory/);
  assert.throws(
    () => findTestnetHomes(dir),
    /holds no node home \(a sub-directory with config\/genesis\.json\)/,
  );
});

test("a PID file is trusted only for a live rxbft node of that very home", () => {
  const dir = folder(["node0"]);
  const home = join(dir, "node0");
  assert.equal(runningPid(home), undefined, "no PID file");
  writeFileSync(join(home, "node.pid"), "not a pid\n");
  assert.equal(runningPid(home), undefined, "garbage");
  writeFileSync(join(home, "node.pid"), `${process.pid}\n`);
  assert.equal(runningPid(home), undefined, "a live process that is not `rxbft node --home` of it");
  writeFileSync(join(home, "node.pid"), "1\n");
  assert.equal(runningPid(home), undefined, "PID 1 is never ours");
});

test("the status table: a header, one aligned row per node, stopped nodes and RPC errors shown", () => {
  const table = formatStatusTable([
    {
      name: "node0",
      pid: 4242,
      running: true,
      rpc: "http://127.0.0.1:26657",
      height: "17",
      hash: "AB".repeat(32),
      peers: 3,
      catchingUp: false,
    },
    { name: "node1", running: false },
    { name: "node10", pid: 7, running: true, rpc: "http://127.0.0.1:27657", error: "connect ECONNREFUSED" },
  ]);
  const lines = table.split("\n");
  assert.equal(lines.length, 4);
  assert.deepEqual(lines[0]!.split(/ {2,}/), [
    "NODE",
    "PID",
    "HEIGHT",
    "PEERS",
    "CATCHING_UP",
    "LAST_BLOCK_HASH",
    "RPC",
  ]);
  assert.deepEqual(lines[1]!.split(/ {2,}/), [
    "node0",
    "4242",
    "17",
    "3",
    "false",
    "AB".repeat(32),
    "http://127.0.0.1:26657",
  ]);
  assert.deepEqual(lines[2]!.split(/ {2,}/), ["node1", "stopped", "-", "-", "-", "-", "-"]);
  assert.deepEqual(lines[3]!.split(/ +/).slice(0, 2), ["node10", "7"]);
  assert.match(lines[3]!, /\(connect ECONNREFUSED\) +http:\/\/127\.0\.0\.1:27657$/);
  // every column starts at the header's offset on every line
  for (const word of ["PID", "HEIGHT", "PEERS", "CATCHING_UP", "LAST_BLOCK_HASH", "RPC"]) {
    const at = lines[0]!.indexOf(word);
    for (const line of lines.slice(1)) {
      assert.equal(line[at - 1], " ", `${word} column on ${JSON.stringify(line)}`);
      assert.notEqual(line[at], " ", `${word} column on ${JSON.stringify(line)}`);
    }
  }
});
