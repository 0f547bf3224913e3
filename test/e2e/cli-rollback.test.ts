// `rxbft rollback [--hard]` on real homes: the state (and the in-process kvstore) go back one
// height; the node then executes the height again to the same app hash and the chain continues.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, test } from "node:test";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { listenAbci } from "../../src/abci/server/socket-server.js";
import { openStores } from "../../src/store/open-stores.js";
import { runCli, tempFolder } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const FAST = { timeout_propose: "500ms", timeout_commit: "50ms" };
const NO_EMPTY = ["--consensus.create_empty_blocks=false"];

async function commitTx(node: NodeProcess, tx: string): Promise<bigint> {
  const body = await node.rpc(`/broadcast_tx_commit?tx="${tx}"`);
  const result = body.result as { height: string; deliver_tx: { code: number } } | undefined;
  assert.ok(result, JSON.stringify(body));
  assert.equal(Number(result.deliver_tx.code), 0);
  return BigInt(result.height);
}

async function heights(home: string): Promise<{ block: bigint; state: bigint; appHash: string }> {
  const stores = await openStores(join(home, "data"), { indexer: "null" });
  try {
    const state = stores.stateStore.load()!;
    return {
      block: stores.blockStore.height(),
      state: state.lastBlockHeight,
      appHash: Buffer.from(state.appHash).toString("hex"),
    };
  } finally {
    await stores.close();
  }
}

/** The height at which the index holds each tx (undefined: not indexed). */
async function txHeights(home: string, txs: string[]): Promise<(bigint | undefined)[]> {
  const stores = await openStores(join(home, "data"), { indexer: "kv" });
  try {
    const out: (bigint | undefined)[] = [];
    for (const tx of txs) {
      const hash = createHash("sha256").update(tx).digest();
      out.push((await stores.txIndexer.getByHash(hash))?.height);
    }
    return out;
  } finally {
    await stores.close();
  }
}

async function kvstoreAt(
  home: string,
): Promise<{ height: bigint; value: (k: string) => string | undefined }> {
  const app = await KvstoreApplication.open(join(home, "data/kvstore.db"));
  const values = new Map<string, string | undefined>();
  for (const k of ["a", "b", "c"]) {
    const v = app.committedValue(Buffer.from(k));
    values.set(k, v === undefined ? undefined : Buffer.from(v).toString());
  }
  const height = app.currentState.height;
  await app.close();
  return { height, value: (k) => values.get(k) };
}

/** A chain whose last blocks overwrite keys: a=1, b=1 | a=2, c=1 | b=2 (the latest height). */
async function chainWithOverwrites(): Promise<{ home: string; last: bigint }> {
  const home = await initFastHome(FAST, "rxbft-rollback-");
  const node = new NodeProcess(home, NO_EMPTY);
  try {
    await node.waitFor(() => node.height >= 1n, "the first block");
    await commitTx(node, "a=1");
    await commitTx(node, "b=1");
    await commitTx(node, "a=2");
    await commitTx(node, "c=1");
    const last = await commitTx(node, "b=2");
    // create_empty_blocks=false still makes one block after a changed app hash; wait for it (a
    // fixed sleep lost the race on a loaded machine and every later height was one off).
    await node.waitFor(() => node.height >= last + 1n, "the block after the last tx");
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0, node.output.slice(-2000));
    return { home, last };
  } catch (error) {
    node.kill("SIGKILL");
    throw error;
  }
}

test("rollback takes state and kvstore back one height; the node re-executes it to the same app hash and continues", {
  timeout: 120_000,
}, async () => {
  const { home } = await chainWithOverwrites();
  const before = await heights(home);
  assert.equal(before.block, before.state);
  const out = await runCli(["rollback", "--home", home, "--proxy_app", "kvstore"]);
  assert.equal(out.code, 0, out.stderr);
  const H = before.state;
  assert.match(out.stdout, new RegExp(`Rolling back the state from height ${H} to ${H - 1n}`));
  assert.match(out.stdout, new RegExp(`Rolled back state to height ${H - 1n} and hash [0-9A-F]*`));
  const after1 = await heights(home);
  assert.equal(after1.state, H - 1n, "state one height back");
  assert.equal(after1.block, H, "block H stays");
  assert.equal((await kvstoreAt(home)).height, H - 1n, "the kvstore went back too");

  // Nothing more to roll back without --hard: refused with why, nothing changed.
  const again = await runCli(["rollback", "--home", home]);
  assert.equal(again.code, 1);
  assert.match(
    again.stderr,
    new RegExp(`already one below the block store \\(${H}\\).*Nothing to roll back`),
  );
  assert.deepEqual(await heights(home), after1);

  const node = new NodeProcess(home);
  try {
    await node.waitFor(() => node.height >= H + 2n, `heights above ${H}`, 60_000);
    assert.match(node.output, new RegExp(`height=${H}`), "the handshake executed block H again");
    const block = (await node.rpc(`/block?height=${H + 1n}`)).result as {
      block: { header: { app_hash: string } };
    };
    assert.equal(block.block.header.app_hash.toLowerCase(), before.appHash, "the same app hash after H");
    const query = (await node.rpc(`/abci_query?data=0x62`)).result as { response: { value: string } };
    assert.equal(Buffer.from(query.response.value, "hex").toString(), "2");
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0);
  } finally {
    node.kill("SIGKILL");
  }
});

test("rollback --hard removes the blocks too, the kvstore keys get their earlier values back", {
  timeout: 120_000,
}, async () => {
  const { home, last } = await chainWithOverwrites();
  const start = await heights(home);
  // A plain rollback, then --hard: the second finishes the job (removes the block) without
  // taking the state further back, as a rerun after an interrupted --hard does.
  assert.equal((await runCli(["rollback", "--home", home, "--proxy_app", "kvstore"])).code, 0);
  const finish = await runCli(["rollback", "--hard", "--home", home, "--proxy_app", "kvstore"]);
  assert.equal(finish.code, 0, finish.stderr);
  assert.match(
    finish.stdout,
    new RegExp(`The state is at height ${start.state - 1n}; removing block ${start.state} \\(--hard\\)`),
  );
  assert.match(finish.stdout, /The in-process kvstore is already at height/);
  assert.match(
    finish.stdout,
    /Moved the consensus log .*cs\.wal \(it ends height \d+\) to .*cs\.wal\.before-rollback-\d+/,
  );
  const finished = await heights(home);
  assert.deepEqual([finished.block, finished.state], [start.state - 1n, start.state - 1n]);
  let h = finished.state;
  // Back to the block that wrote b=2 (the empty proof block after it goes first).
  while (h > last) {
    const out = await runCli(["rollback", "--hard", "--home", home, "--proxy_app", "kvstore"]);
    assert.equal(out.code, 0, out.stderr);
    h--;
  }
  assert.deepEqual((await kvstoreAt(home)).value("b"), "2");
  const out = await runCli(["rollback", "--hard", "--home", home, "--proxy_app", "kvstore"]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(
    out.stdout,
    /Warning: this validator's signer .* has signed up to height \d+; it refuses to sign heights/,
  );
  assert.match(
    out.stdout,
    new RegExp(`Removed block ${last} from the block store \\(now at height ${last - 1n}\\)`),
  );
  assert.match(out.stdout, new RegExp(`Removed height ${last} from the event index \\(1 txs\\)`));
  const indexed = await txHeights(home, ["b=2", "b=1", "a=2"]);
  assert.equal(indexed[0], undefined, "the removed block's tx is gone from the index");
  assert.ok(indexed[1]! < last && indexed[2]! < last, "txs of the blocks below stay");
  const now = await heights(home);
  assert.equal(now.block, last - 1n);
  assert.equal(now.state, last - 1n);
  const kv = await kvstoreAt(home);
  assert.equal(kv.height, last - 1n);
  assert.equal(kv.value("b"), "1", "b=2 undone: b has its earlier value");
  assert.equal(kv.value("a"), "2");
  assert.equal(kv.value("c"), "1");
  // Below c=1's block (c never existed before), then below a=2's: each value undone. A block with
  // no txs may sit between them (create_empty_blocks = false still makes the block that carries a
  // changed app hash), so the heights come from the index, not from counting.
  const [cHeight] = await txHeights(home, ["c=1"]);
  const aHeight = indexed[2]!;
  assert.ok(cHeight !== undefined && cHeight < last && aHeight < cHeight);
  const rollBackBelow = async (height: bigint) => {
    for (let state = (await heights(home)).state; state >= height; state--)
      assert.equal((await runCli(["rollback", "--hard", "--home", home, "--proxy_app", "kvstore"])).code, 0);
  };
  await rollBackBelow(cHeight);
  const kv1 = await kvstoreAt(home);
  assert.equal(kv1.value("c"), undefined);
  assert.equal(kv1.value("a"), "2");
  await rollBackBelow(aHeight);
  const kv2 = await kvstoreAt(home);
  assert.equal(kv2.value("c"), undefined);
  assert.equal(kv2.value("a"), "1");
  const top = (await heights(home)).state;

  // The signer signed the removed heights (the command warned): on this single-validator devnet
  // nobody else holds the key, so resetting it is the way on; the node's start-up check of
  // recent commits against the signer state is turned off for the same reason.
  assert.equal((await runCli(["unsafe_reset_priv_validator", "--home", home])).code, 0);
  const node = new NodeProcess(home, ["--consensus.double_sign_check_height", "0"]);
  try {
    await node.waitFor(() => node.height >= top + 2n, `heights above ${top}`, 60_000);
    const query = (await node.rpc("/abci_query?data=0x61")).result as { response: { value: string } };
    assert.equal(Buffer.from(query.response.value, "hex").toString(), "1");
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0);
  } finally {
    node.kill("SIGKILL");
  }
});

test("rollback refuses a fresh home and a home locked by a running node", async () => {
  const home = await initFastHome(FAST, "rxbft-rollback-");
  const fresh = await runCli(["rollback", "--home", home]);
  assert.equal(fresh.code, 1);
  assert.match(fresh.stderr, /no state saved yet .*nothing to roll back/);
  const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore" });
  try {
    writeFileSync(join(home, "data/rxbft.lock"), `${sleeper.pid}\n`);
    const out = await runCli(["rollback", "--home", home]);
    assert.equal(out.code, 1);
    assert.match(
      out.stderr,
      new RegExp(`refusing to roll back the state: a node \\(pid ${sleeper.pid}\\) is running`),
    );
  } finally {
    sleeper.kill();
  }
});

test("rollback across a validator-set change rebuilds the change height from the stores (a socket app with validator txs)", {
  timeout: 120_000,
}, async () => {
  // Blocks every 2 s: the node is stopped right after V+1, before V+2 starts.
  const home = await initFastHome({ timeout_propose: "500ms", timeout_commit: "2s" }, "rxbft-rollback-vals-");
  const pubKey = (
    JSON.parse(readFileSync(join(home, "config/priv_validator_key.json"), "utf8")) as {
      pub_key: { value: string };
    }
  ).pub_key.value;
  // persistent_kvstore's rules (val:<key>!<power> txs) behind a socket, as an external app.
  const appDir = join(tempFolder("rxbft-rollback-app-"), "app.db");
  let application = await KvstoreApplication.open(appDir, { validatorTxs: true });
  let server = await listenAbci(application, { kind: "tcp", host: "127.0.0.1", port: 0 });
  const port = () => (server.server.address() as AddressInfo).port;
  const node = new NodeProcess(home, ["--proxy_app", `tcp://127.0.0.1:${port()}`]);
  let changedAt: bigint;
  try {
    await node.waitFor(() => node.height >= 1n, "the first block");
    // The validator's power 10 → 20 in block V: it takes effect at V+2.
    changedAt = await commitTx(node, encodeURIComponent(`val:${pubKey}!20`));
    await node.waitFor(() => node.height >= changedAt + 1n, "the block after the change", 20_000);
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0, node.output.slice(-2000));
  } finally {
    node.kill("SIGKILL");
  }
  const before = await heights(home);
  assert.equal(before.state, changedAt + 1n, "the chain stopped at V+1");
  const out = await runCli(["rollback", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /The app at tcp:\/\/.* is not part of this home: roll it back/);
  // State V: its next validators (for V+2) changed at V+2, as the stored record says. Taking the
  // later state's value capped at V+1, as CometBFT once did, breaks the next start.
  const stores = await openStores(join(home, "data"), { indexer: "null" });
  try {
    const state = stores.stateStore.load()!;
    assert.equal(state.lastBlockHeight, changedAt);
    assert.equal(state.lastHeightValidatorsChanged, changedAt + 2n);
    assert.equal(state.nextValidators!.validators[0]!.votingPower, 20n);
    assert.equal(state.validators!.validators[0]!.votingPower, 10n);
  } finally {
    await stores.close();
  }
  // The app stayed at V+1: the node rebuilds state V+1 from the saved responses and goes on.
  await server.close();
  await application.close();
  application = await KvstoreApplication.open(appDir, { validatorTxs: true });
  server = await listenAbci(application, { kind: "tcp", host: "127.0.0.1", port: 0 });
  const again = new NodeProcess(home, ["--proxy_app", `tcp://127.0.0.1:${port()}`]);
  try {
    await again.waitFor(() => again.rpcUrl !== undefined && again.height >= 0n, "the RPC server");
    const h = await commitTx(again, "after=rollback");
    assert.ok(h > changedAt + 1n);
    const vals = (await again.rpc(`/validators?height=${h}`)).result as {
      validators: { voting_power: string }[];
    };
    assert.equal(vals.validators[0]!.voting_power, "20");
    again.kill("SIGINT");
    assert.equal((await again.exited).code, 0);
  } finally {
    again.kill("SIGKILL");
    await server.close();
    await application.close();
  }
});
