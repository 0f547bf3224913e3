// bin/rxbft, the installed entry (package.json "bin", `npm start`): the node it starts runs on
// jemalloc when it is installed (test/system/packages.txt installs it), else with glibc's tuned
// settings, the operator's own choices win, a bad choice is refused by name, and the PID the
// caller spawned IS the node (the script execs it), so kill -9 of that PID leaves no process behind
// and exit codes pass through.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { runCli, tempFolder, tempHome } from "./cli-harness.js";
import { killAllNodes, NodeProcess } from "./node-harness.js";

const WRAPPER = fileURLToPath(new URL("../../bin/rxbft", import.meta.url));
/** Where Debian's libjemalloc2 puts the library (the script also looks elsewhere). */
const JEMALLOC = readdirSync("/usr/lib")
  .map((dir) => `/usr/lib/${dir}/libjemalloc.so.2`)
  .find((file) => existsSync(file));
const JEMALLOC_CONF = "narenas:2,background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";
const TUNED = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  MALLOC_TRIM_THRESHOLD_: "131072",
};
// The script runs `node` from PATH: the one running these tests, whatever the caller's PATH.
const PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ""}`;

after(killAllNodes);

/** The operator's environment: the test's own, without any malloc setting it may carry. */
function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH };
  for (const key of [
    ...Object.keys(TUNED),
    "GLIBC_TUNABLES",
    "RXBFT_MALLOC",
    "RXBFT_JEMALLOC",
    "MALLOC_CONF",
    "LD_PRELOAD",
  ])
    delete env[key];
  return { ...env, ...extra };
}

async function initHome(): Promise<string> {
  const home = tempHome("rxbft-bin-");
  const out = await runCli(["init", "--home", home, "--chain-id", "bin-e2e"]);
  assert.equal(out.code, 0, out.stderr);
  return home;
}

function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return "";
  }
}

/** `rxbft node` through the script; resolves once the spawned PID runs bin/run.js (the exec). */
async function startNode(home: string, env: NodeJS.ProcessEnv, entry = WRAPPER): Promise<NodeProcess> {
  const node = new NodeProcess(home, [], { entry, env });
  const deadline = Date.now() + 20_000;
  while (!readProc(node.child.pid!, "cmdline").includes("run.js")) {
    if (node.child.exitCode !== null) throw new Error(`rxbft exited ${node.child.exitCode}: ${node.output}`);
    if (Date.now() > deadline) throw new Error(`rxbft did not exec the node: ${node.output}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return node;
}

/**
 * The MALLOC_* variables and LD_PRELOAD in a process's environment. (GLIBC_TUNABLES is left out:
 * glibc rewrites that string in place as it reads it.)
 */
function mallocEnvOf(pid: number): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const entry of readProc(pid, "environ").split("\0")) {
    const at = entry.indexOf("=");
    const key = entry.slice(0, at);
    if (key.startsWith("MALLOC_") || key === "LD_PRELOAD") seen[key] = entry.slice(at + 1);
  }
  return seen;
}

async function kill9(node: NodeProcess) {
  node.kill("SIGKILL");
  return node.exited;
}

/** PIDs of processes whose command line names `home`. */
function processesNaming(home: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && readProc(pid, "cmdline").includes(home));
}

test("the node started by bin/rxbft runs on jemalloc with its settings; kill -9 of the spawned PID leaves no process", async () => {
  assert.ok(JEMALLOC, "libjemalloc.so.2 is installed (test/system/packages.txt: libjemalloc2)");
  const home = await initHome();
  const node = await startNode(home, baseEnv());
  assert.deepEqual(mallocEnvOf(node.child.pid!), { LD_PRELOAD: JEMALLOC, MALLOC_CONF: JEMALLOC_CONF });
  // Loaded, not only named: the library is mapped into the node.
  assert.ok(readProc(node.child.pid!, "maps").includes("libjemalloc.so.2"));
  // The spawned PID is node itself, not a shell waiting on it.
  assert.match(readProc(node.child.pid!, "cmdline").split("\0")[0]!, /node/);
  assert.deepEqual(await kill9(node), { code: null, signal: "SIGKILL" });
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(processesNaming(home), []);
});

test("the operator's choices win: RXBFT_MALLOC, MALLOC_CONF, a glibc variable or tunable; no jemalloc falls back to tuned", async () => {
  const home = await initHome();
  const cases: [Record<string, string>, Record<string, string>][] = [
    [{ RXBFT_MALLOC: "tuned" }, TUNED],
    [
      { RXBFT_MALLOC: "tuned", MALLOC_ARENA_MAX: "4" },
      { ...TUNED, MALLOC_ARENA_MAX: "4" },
    ],
    [
      { RXBFT_MALLOC: "tuned", GLIBC_TUNABLES: "glibc.malloc.tcache_count=0:glibc.malloc.arena_max=3" },
      { MALLOC_MMAP_THRESHOLD_: "131072", MALLOC_TRIM_THRESHOLD_: "131072" },
    ],
    [{ RXBFT_MALLOC: "glibc" }, {}],
    [{ MALLOC_CONF: "narenas:1" }, { LD_PRELOAD: JEMALLOC!, MALLOC_CONF: "narenas:1" }],
    [{ RXBFT_JEMALLOC: "/nonexistent/libjemalloc.so.2" }, TUNED],
  ];
  for (const [operator, expected] of cases) {
    const node = await startNode(home, baseEnv(operator));
    const seen = mallocEnvOf(node.child.pid!);
    await kill9(node);
    assert.deepEqual(seen, expected, JSON.stringify(operator));
  }
});

test("through a link, as npm installs it, the script finds run.js; exit codes and SIGINT pass through", async () => {
  const link = join(tempFolder("rxbft-bin-link-"), "rxbft");
  symlinkSync(WRAPPER, link);
  const home = await initHome();
  const node = await startNode(home, baseEnv(), link);
  // SIGINT once the node is running (a height committed), as an operator's Ctrl-C would come.
  await node.waitFor(() => node.committed.length > 0, "a committed height");
  node.kill("SIGINT");
  const timeout = new Promise((resolve) =>
    setTimeout(() => resolve("still running 30 s after SIGINT"), 30_000).unref(),
  );
  assert.deepEqual(await Promise.race([node.exited, timeout]), { code: 0, signal: null });

  const bad = await new Promise<number | null>((resolve) =>
    execFile(link, ["no_such_command"], { env: baseEnv() }, (error) =>
      resolve(error ? (typeof error.code === "number" ? error.code : null) : 0),
    ),
  );
  const direct = await runCli(["no_such_command"]);
  assert.notEqual(direct.code, 0);
  assert.equal(bad, direct.code);
});

test("a malloc choice that cannot be met is refused by name, before the node starts", async () => {
  const run = (env: NodeJS.ProcessEnv) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(WRAPPER, ["version"], { env }, (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stderr }),
      ),
    );
  const bogus = await run(baseEnv({ RXBFT_MALLOC: "tcmalloc" }));
  assert.equal(bogus.code, 1);
  assert.match(bogus.stderr, /RXBFT_MALLOC="tcmalloc" is not one of auto, jemalloc, tuned, glibc/);
  const missing = await run(
    baseEnv({ RXBFT_MALLOC: "jemalloc", RXBFT_JEMALLOC: "/nonexistent/libjemalloc.so.2" }),
  );
  assert.equal(missing.code, 1);
  assert.match(
    missing.stderr,
    /RXBFT_MALLOC=jemalloc but no libjemalloc\.so\.2 was found \(looked in \/nonexistent/,
  );
  assert.equal((await run(baseEnv())).code, 0);
});
