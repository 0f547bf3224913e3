// Crash consistency of the stores: a child process persists heights (block → state → index)
// and is killed with SIGKILL at random moments, at least 50 times. After every kill the data
// directory must reconcile without error, and no height the child reported saved may be lost:
// its block, state and indexed txs are all there. The writer also prunes every 40 heights, so
// some kills land inside prunes.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { fileURLToPath } from "node:url";
import { sha256 } from "../../src/crypto/hash.js";
import { parseQuery } from "../../src/query/parser.js";
import { openStores } from "../../src/store/index.js";
import { makeTxs } from "../fixtures/store/chain-fixture.js";

const KILLS = 50;
const repo = fileURLToPath(new URL("../..", import.meta.url));
const writerSource = join(repo, "test/fixtures/store/crash-writer.ts");
const root = mkdtempSync(join(tmpdir(), "store-crash-"));
const dataDir = join(root, "data");
after(() => rmSync(root, { recursive: true, force: true }));

// Same rule as the writer's txCountAt.
const txCountAt = (h: bigint): number => (h % 25n === 0n ? 2500 : 5 + Number(h % 40n));

/** A command that starts the writer: a one-file bundle when esbuild is at hand (fast start), else tsx. */
let writerCommand: string[];
let bundle: string | undefined;
after(() => {
  if (bundle !== undefined) rmSync(bundle, { force: true });
});
before(async () => {
  try {
    const esbuild = (await import("esbuild")) as typeof import("esbuild");
    const outDir = join(repo, "node_modules/.cache/rxbft-store-crash");
    mkdirSync(outDir, { recursive: true });
    const outfile = join(outDir, `writer-${process.pid}.mjs`);
    await esbuild.build({
      entryPoints: [writerSource],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      outfile,
      logLevel: "silent",
    });
    bundle = outfile;
    writerCommand = [outfile];
  } catch {
    writerCommand = ["--import", "tsx", writerSource];
  }
});

interface Run {
  child: ChildProcess;
  /** The writer finished start-up repair and is persisting heights. */
  writing: boolean;
  saved: bigint[];
  started: Promise<void>;
  exited: Promise<void>;
  stderr: string;
}

function startWriter(): Run {
  const child = spawn(process.execPath, [...writerCommand, dataDir], {
    cwd: repo,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run: Run = {
    child,
    writing: false,
    saved: [],
    started: Promise.resolve(),
    exited: Promise.resolve(),
    stderr: "",
  };
  let buffered = "";
  let onStart: () => void = () => {};
  run.started = new Promise((resolve) => {
    onStart = resolve;
  });
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.startsWith("saved ")) run.saved.push(BigInt(line.slice(6)));
      else if (line.startsWith("start ")) {
        run.writing = true;
        onStart();
      }
      newline = buffered.indexOf("\n");
    }
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    run.stderr += chunk;
  });
  run.exited = new Promise((resolve) => child.once("exit", () => resolve()));
  return run;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function verify(lastReported: bigint, kill: number): Promise<bigint> {
  const stores = await openStores(dataDir, { indexer: "kv", advanceProposerPriority: (set) => set });
  try {
    const report = await stores.reconcile({ repair: false });
    const where = `after kill ${kill} (last reported ${lastReported}): ${report.findings.join("; ")}`;
    const state = report.stateHeight ?? 0n;
    assert.ok(report.blockHeight >= lastReported, `block store lost heights ${where}`);
    assert.ok(
      report.blockBase <= lastReported || lastReported === 0n,
      `pruned past a reported height ${where}`,
    );
    assert.ok(state >= lastReported, `state lost heights ${where}`);
    assert.ok(report.blockHeight === state || report.blockHeight === state + 1n, `block/state gap ${where}`);
    assert.equal(
      report.replayHeight,
      report.blockHeight === state + 1n ? report.blockHeight : undefined,
      where,
    );
    assert.ok((report.indexedHeight ?? 0n) >= lastReported, `index lost heights ${where}`);
    assert.deepEqual(report.unindexableHeights, [], where);
    const repairedTo = report.reindexHeights.at(-1) ?? report.indexedHeight ?? 0n;
    assert.ok(repairedTo >= state || state === 0n, `index cannot be repaired to state ${where}`);
    if (lastReported > 0n) {
      const block = await stores.blockStore.loadBlock(lastReported);
      assert.equal(block?.data.txs.length, txCountAt(lastReported), where);
      const txs = makeTxs(lastReported, txCountAt(lastReported));
      const last = await stores.txIndexer.getByHash(sha256(txs.at(-1)!));
      assert.equal(last?.height, lastReported, `tx of height ${lastReported} not found ${where}`);
      const found = await stores.txIndexer.search({
        conditions: parseQuery(`tx.height = ${lastReported} AND message.action = 'send'`).conditions,
        page: 1,
        perPage: 1,
        order: "asc",
      });
      assert.equal(found.total, txCountAt(lastReported), where);
      assert.ok(await stores.stateStore.loadABCIResponses(lastReported), where);
    }
    return report.blockHeight;
  } finally {
    await stores.close();
  }
}

it(`survives ${KILLS} SIGKILLs at random moments without losing a reported height`, {
  timeout: 240_000,
}, async (t) => {
  let lastReported = 0n;
  let killsDuringWrites = 0;
  for (let kill = 1; kill <= KILLS; kill++) {
    const run = startWriter();
    // Mostly kill while heights are being written; sometimes during start-up repair.
    if (Math.random() < 0.8) {
      await Promise.race([run.started, run.exited]);
      await sleep(Math.random() * 250);
    } else {
      await sleep(Math.random() * 150);
    }
    run.child.kill("SIGKILL");
    await run.exited;
    assert.equal(run.stderr, "", `writer failed on run ${kill}: ${run.stderr}`);
    if (run.writing) killsDuringWrites++;
    if (run.saved.length > 0) {
      const top = run.saved.at(-1)!;
      assert.ok(top > lastReported, "heights only grow");
      lastReported = top;
    }
    await verify(lastReported, kill);
  }
  t.diagnostic(`${killsDuringWrites} kills while writing heights; chain reached height ${lastReported}`);
  assert.ok(
    killsDuringWrites >= KILLS / 2,
    `only ${killsDuringWrites} kills landed while heights were written`,
  );
  assert.ok(lastReported > 40n, `the chain grew to ${lastReported}, past a prune`);
});
