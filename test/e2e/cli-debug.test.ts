// `rxbft debug dump` and `rxbft debug kill` against a running node: the archive's files are the
// ones listed here, none holds key material or the config's secrets, and `kill` stops the node
// after collecting.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli, tempFolder } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const SECRET_PASSWORD = "hunter2-s3cret";

function unzipList(file: string): string[] {
  return execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n");
}

function unzipRead(file: string, name: string): string {
  return execFileSync("unzip", ["-p", file, name], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** Every secret of a home, in the forms it could leak in (base64 as stored, hex either case). */
function keyMaterial(home: string): string[] {
  const out = [SECRET_PASSWORD];
  for (const file of ["config/priv_validator_key.json", "config/node_key.json"]) {
    const b64 = (JSON.parse(readFileSync(join(home, file), "utf8")) as { priv_key: { value: string } })
      .priv_key.value;
    const raw = Buffer.from(b64, "base64");
    out.push(b64, raw.toString("hex"), raw.toString("hex").toUpperCase());
    // The 32-byte seed alone, too.
    out.push(raw.subarray(0, 32).toString("base64").slice(0, 40), raw.subarray(0, 32).toString("hex"));
  }
  return out;
}

async function runningNode(): Promise<{ home: string; node: NodeProcess; logFile: string; dir: string }> {
  const home = await initFastHome({ timeout_commit: "100ms" }, "rxbft-debug-");
  const configFile = join(home, "config/config.toml");
  const text = readFileSync(configFile, "utf8");
  writeFileSync(
    configFile,
    text.replace(
      /^psql-conn = .*$/m,
      `psql-conn = "postgresql://rxbft:${SECRET_PASSWORD}@127.0.0.1:5432/index"`,
    ),
  );
  assert.match(readFileSync(configFile, "utf8"), new RegExp(SECRET_PASSWORD));
  const dir = tempFolder("rxbft-debug-out-");
  const logFile = join(dir, "node.log");
  writeFileSync(logFile, "");
  const node = new NodeProcess(home);
  // As an operator's `rxbft node > node.log 2>&1` would.
  node.child.stdout!.on("data", (d: Buffer) => appendFileSync(logFile, d));
  node.child.stderr!.on("data", (d: Buffer) => appendFileSync(logFile, d));
  await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 3n, "the RPC server and three blocks");
  return { home, node, logFile, dir };
}

test("debug dump writes the listed files, with no key material and the config's secrets redacted", {
  timeout: 60_000,
}, async () => {
  const { home, node, logFile, dir } = await runningNode();
  try {
    const out = join(dir, "bundle.zip");
    const res = await runCli([
      "debug",
      "dump",
      "--home",
      home,
      "--rpc",
      node.rpcUrl!,
      "--log-file",
      logFile,
      "--log-lines",
      "5",
      out,
    ]);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^Wrote .*bundle\.zip: manifest\.json, /m);
    assert.match(execFileSync("unzip", ["-t", out], { encoding: "utf8" }), /No errors detected/);
    assert.deepEqual(unzipList(out), [
      "manifest.json",
      "status.json",
      "net_info.json",
      "consensus_state.json",
      "dump_consensus_state.json",
      "memory.txt",
      "config.toml",
      "priv_validator_state.json",
      "node.log",
      "consensus-log-tail.jsonl",
    ]);
    const status = JSON.parse(unzipRead(out, "status.json"));
    assert.ok(status.result.node_info.id, "status holds the node's answer");
    for (const route of ["net_info", "consensus_state", "dump_consensus_state"]) {
      assert.ok(JSON.parse(unzipRead(out, `${route}.json`)).result, route);
    }
    const manifest = JSON.parse(unzipRead(out, "manifest.json"));
    assert.equal(manifest.node_pid, node.child.pid);
    assert.deepEqual(Object.keys(manifest.missing), ["heap.heapsnapshot"]);
    assert.match(unzipRead(out, "memory.txt"), /^VmRSS:\s+\d+ kB$/m);
    const log = unzipRead(out, "node.log");
    assert.equal(log.split("\n").length, 6, "5 lines and the final newline");
    assert.ok(readFileSync(logFile, "utf8").includes(log), "whole lines of the file, in order");
    assert.match(log, /committed block/);
    const records = unzipRead(out, "consensus-log-tail.jsonl").trim().split("\n");
    assert.ok(records.length > 5);
    assert.ok(records.every((r) => JSON.parse(r) !== undefined));
    assert.match(unzipRead(out, "config.toml"), /^psql-conn = "<redacted>"$/m);

    const everything = unzipList(out)
      .map((name) => unzipRead(out, name))
      .join("\n");
    for (const secret of keyMaterial(home))
      assert.equal(everything.includes(secret), false, `leaked ${secret.slice(0, 6)}…`);
    assert.equal(readFileSync(out).includes(Buffer.from(SECRET_PASSWORD)), false);

    const again = await runCli(["debug", "dump", "--home", home, "--rpc", node.rpcUrl!, out]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, `Error: ${out} already exists; choose another output file\n`);
  } finally {
    node.kill("SIGKILL");
  }
});

test("debug dump of an unreachable RPC still writes the archive and says what is missing", {
  timeout: 30_000,
}, async () => {
  const home = await initFastHome({}, "rxbft-debug-");
  const out = join(tempFolder("rxbft-debug-out-"), "bundle.zip");
  const res = await runCli(["debug", "dump", "--home", home, "--rpc", "http://127.0.0.1:9", out]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /not collected: status\.json: GET http:\/\/127\.0\.0\.1:9\/status: /);
  assert.match(res.stdout, /not collected: node\.log: no --log-file given/);
  assert.match(res.stdout, /not collected: consensus-log-tail\.jsonl: .*no consensus log here/);
  assert.deepEqual(unzipList(out), ["manifest.json", "config.toml", "priv_validator_state.json"]);
});

test("debug kill collects, stops the node, and refuses a pid that is not the home's node", {
  timeout: 60_000,
}, async () => {
  const { home, node, logFile, dir } = await runningNode();
  try {
    const out = join(dir, "kill.zip");
    const wrong = await runCli(["debug", "kill", String(process.pid), out, "--home", home]);
    assert.equal(wrong.code, 1);
    assert.match(
      wrong.stderr,
      new RegExp(
        `process ${process.pid} is not the node running in .* \\(that is pid ${node.child.pid}\\); refusing to kill it`,
      ),
    );
    assert.equal(existsSync(out), false);

    const res = await runCli([
      "debug",
      "kill",
      String(node.child.pid),
      out,
      "--home",
      home,
      "--rpc",
      node.rpcUrl!,
      "--log-file",
      logFile,
    ]);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, new RegExp(`pid ${node.child.pid} stopped`));
    const exit = await node.exited;
    assert.equal(exit.code, 0, "SIGTERM stopped the node cleanly");
    assert.ok(unzipList(out).includes("status.json"));
    assert.match(unzipRead(out, "node.log"), /node stopped/, "the log tail holds the node's last lines");
  } finally {
    node.kill("SIGKILL");
  }
});
