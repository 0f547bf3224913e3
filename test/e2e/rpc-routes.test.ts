// Every route of the RPC against running single-validator nodes, in both call styles (URI GET
// and JSON-RPC POST) and both result forms (rpc.compat = "seed" and "tendermint"), asserting
// the field types rpc-forms.md and the specification give: strings vs numbers, upper-case hex,
// base64, trimmed RFC 3339 times, key type strings.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { initFastHome, NodeProcess } from "./node-harness.js";

type Form = "seed" | "tendermint";
type Json = Record<string, any>;

const HEX64 = /^[0-9A-F]{64}$/;
const HEX = /^([0-9A-F]{2})*$/;
const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?Z$/;
const INT = /^-?\d+$/;

const nodes = new Map<Form, NodeProcess>();
const committedTx = new Map<Form, { hash: string; height: string; tx: string }>();

async function startNode(form: Form): Promise<NodeProcess> {
  const home = await initFastHome({ timeout_commit: "300ms", compat: form }, `rxbft-rpc-${form}-`);
  const file = join(home, "config", "config.toml");
  writeFileSync(file, readFileSync(file, "utf8").replace(/^unsafe = .*$/m, "unsafe = true"));
  const node = new NodeProcess(home);
  await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 3n, `the ${form} node at height 3`);
  return node;
}

/** Bytes of a HexBytes parameter (abci_query's data): hex in JSON-RPC, not base64. */
class HexParam {
  constructor(readonly bytes: Uint8Array) {}
}

/** A URI query value: integers bare, strings quoted, bytes as 0x hex, arrays as JSON. */
function uriValue(value: unknown): string {
  if (value instanceof HexParam) return `0x${Buffer.from(value.bytes).toString("hex")}`;
  if (value instanceof Uint8Array) return `0x${Buffer.from(value).toString("hex")}`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return encodeURIComponent(JSON.stringify(value));
}

/** A JSON-RPC param: integers as strings (as the samples send them), bytes as base64. */
function postValue(value: unknown): unknown {
  if (value instanceof HexParam) return Buffer.from(value.bytes).toString("hex");
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (typeof value === "number") return String(value);
  return value;
}

async function get(form: Form, method: string, params: Record<string, unknown> = {}): Promise<Json> {
  const query = Object.entries(params)
    .map(([k, v]) => `${k}=${uriValue(v)}`)
    .join("&");
  const res = await fetch(`${nodes.get(form)!.rpcUrl}/${method}${query ? `?${query}` : ""}`);
  const body = (await res.json()) as Json;
  assert.equal(body.jsonrpc, "2.0");
  assert.equal(body.id, -1);
  return body;
}

async function post(form: Form, method: string, params: Record<string, unknown> = {}): Promise<Json> {
  const converted = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, postValue(v)]));
  const request = {
    jsonrpc: "2.0",
    id: "t",
    method,
    ...(Object.keys(params).length ? { params: converted } : {}),
  };
  const res = await fetch(nodes.get(form)!.rpcUrl!, {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: JSON.stringify(request),
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as Json;
  assert.equal(body.id, "t");
  return body;
}

/** Both call styles; returns both results after checking neither failed. */
async function both(form: Form, method: string, params: Record<string, unknown> = {}) {
  const [g, p] = await Promise.all([get(form, method, params), post(form, method, params)]);
  assert.equal(g.error, undefined, `${form} GET ${method}: ${JSON.stringify(g.error)}`);
  assert.equal(p.error, undefined, `${form} POST ${method}: ${JSON.stringify(p.error)}`);
  return [g.result as Json, p.result as Json] as const;
}

const keyType = (form: Form) => (form === "seed" ? "node/PubKeyEd25519" : "tendermint/PubKeyEd25519");
const code = (form: Form, value: unknown) => assert.equal(value, form === "seed" ? "0" : 0);

function checkHeader(h: Json, form: Form): void {
  assert.match(h.height, INT);
  assert.match(h.time, TIME);
  assert.match(h.version.block, INT);
  if (form === "seed") assert.match(h.version.app, INT);
  for (const k of [
    "last_commit_hash",
    "data_hash",
    "validators_hash",
    "next_validators_hash",
    "consensus_hash",
  ]) {
    assert.match(h[k], HEX64, k);
  }
  for (const k of ["app_hash", "last_results_hash", "evidence_hash", "proposer_address"])
    assert.match(h[k], HEX, k);
}

function checkBlockId(id: Json): void {
  assert.match(id.hash, HEX64);
  assert.equal(typeof id.parts.total, "number");
  assert.match(id.parts.hash, HEX64);
}

before(async () => {
  const started = await Promise.all([startNode("seed"), startNode("tendermint")]);
  nodes.set("seed", started[0]);
  nodes.set("tendermint", started[1]);
  for (const form of ["seed", "tendermint"] as const) {
    const tx = `${form}-key=committed`;
    const r = (await post(form, "broadcast_tx_commit", { tx: new TextEncoder().encode(tx) })).result as Json;
    committedTx.set(form, { hash: r.hash, height: r.height, tx });
  }
});

after(() => {
  for (const node of nodes.values()) node.kill("SIGINT");
});

for (const form of ["seed", "tendermint"] as const) {
  test(`${form}: health, status, net_info`, async () => {
    const [health] = await both(form, "health");
    assert.deepEqual(health, {});
    for (const s of await both(form, "status")) {
      assert.equal(s.node_info.version, "0.34.24");
      assert.match(s.node_info.id, /^[0-9a-f]{40}$/);
      assert.match(s.node_info.protocol_version.block, INT);
      assert.equal(s.node_info.other.tx_index, "on");
      assert.match(s.sync_info.latest_block_hash, HEX64);
      assert.match(s.sync_info.latest_block_height, INT);
      assert.match(s.sync_info.latest_block_time, TIME);
      assert.equal(s.sync_info.earliest_block_height, "1");
      assert.equal(s.sync_info.catching_up, false);
      assert.equal(s.validator_info.pub_key.type, keyType(form));
      assert.match(s.validator_info.pub_key.value, B64);
      assert.equal(s.validator_info.voting_power, "10");
    }
    for (const n of await both(form, "net_info")) {
      assert.equal(typeof n.listening, "boolean");
      assert.ok(Array.isArray(n.listeners));
      assert.equal(n.n_peers, "0");
      assert.deepEqual(n.peers, []);
    }
  });

  test(`${form}: blockchain, block, block_by_hash, commit`, async () => {
    const [chain, chainPost] = await both(form, "blockchain", { minHeight: 1, maxHeight: 3 });
    // The node keeps making blocks: a height may be committed between the two calls.
    assert.ok(BigInt(chainPost.last_height) >= BigInt(chain.last_height), "last_height never goes back");
    assert.deepEqual({ ...chain, last_height: undefined }, { ...chainPost, last_height: undefined });
    assert.deepEqual(
      chain.block_metas.map((m: Json) => m.header.height),
      ["3", "2", "1"],
    );
    assert.equal(typeof chain.block_metas[0].block_size, form === "seed" ? "number" : "string");
    assert.match(chain.block_metas[0].num_txs, INT);

    const [block, blockPost] = await both(form, "block", { height: 2 });
    assert.deepEqual(block, blockPost);
    checkBlockId(block.block_id);
    checkHeader(block.block.header, form);
    const last = block.block.last_commit;
    if (form === "seed") {
      assert.ok(Array.isArray(block.block.data) && Array.isArray(block.block.evidence));
      assert.equal(last.height, 1);
      assert.equal(last.signatures[0].type, 2);
      assert.equal(last.signatures[0].height, "1");
      assert.equal(last.signatures[0].validator_index, 0);
    } else {
      assert.deepEqual(block.block.data, { txs: [] });
      assert.deepEqual(block.block.evidence, { evidence: [] });
      assert.equal(last.height, "1");
      assert.deepEqual(Object.keys(last.signatures[0]), [
        "block_id_flag",
        "validator_address",
        "timestamp",
        "signature",
      ]);
    }
    assert.equal(last.signatures[0].block_id_flag, 2);
    assert.match(last.signatures[0].timestamp, TIME);
    assert.match(last.signatures[0].signature, B64);

    const hash = Buffer.from(block.block_id.hash, "hex");
    const [byHash, byHashPost] = await both(form, "block_by_hash", { hash });
    assert.deepEqual(byHash, block);
    assert.deepEqual(byHashPost, block);

    const [commit, commitPost] = await both(form, "commit", { height: 2 });
    assert.deepEqual(commit, commitPost);
    assert.equal(commit.canonical, true);
    assert.equal(commit.signed_header.commit.height, "2");
    assert.equal(typeof commit.signed_header.commit.round, "number");
    assert.deepEqual(commit.signed_header.header, block.block.header);
    const [latest] = await both(form, "commit");
    assert.equal(latest.canonical, false);
  });

  test(`${form}: block_results, tx, tx_search, block_search`, async () => {
    const { hash, height } = committedTx.get(form)!;
    const [results, resultsPost] = await both(form, "block_results", { height: Number(height) });
    assert.deepEqual(results, resultsPost);
    assert.equal(results.height, height);
    const txr = results.txs_results[0];
    code(form, txr.code);
    assert.match(txr.gas_wanted, INT);
    assert.match(txr.events[0].attributes[0].key, B64);
    if (form === "seed") {
      assert.match(results.total_gas_used, INT);
      assert.deepEqual(results.end_block, results.end_block_events);
    } else {
      assert.equal(results.begin_block_events, null);
      assert.equal("end_block" in results, false);
    }

    const [tx, txPost] = await both(form, "tx", { hash: Buffer.from(hash, "hex"), prove: true });
    assert.deepEqual(tx, txPost);
    assert.equal(tx.hash, hash);
    assert.equal(tx.height, height);
    assert.equal(tx.index, 0);
    assert.equal(Buffer.from(tx.tx, "base64").toString(), committedTx.get(form)!.tx);
    code(form, tx.tx_result.code);
    if (form === "seed") assert.ok(Array.isArray(tx.tx_result.tags));
    assert.match(tx.proof.root_hash, HEX64);
    assert.equal(tx.proof.proof.total, "1");
    assert.ok(Array.isArray(tx.proof.proof.aunts));

    const [search, searchPost] = await both(form, "tx_search", {
      query: `tx.height=${height}`,
      prove: false,
      page: 1,
      per_page: 5,
    });
    assert.deepEqual(search, searchPost);
    assert.equal(search.total_count, "1");
    assert.equal(search.txs[0].hash, hash);

    const [blocks] = await both(form, "block_search", { query: `block.height=${height}` });
    assert.equal(blocks.total_count, "1");
    assert.equal(blocks.blocks[0].block.header.height, height);
  });

  test(`${form}: validators, genesis, genesis_chunked, consensus_params`, async () => {
    const [vals, valsPost] = await both(form, "validators", { height: 1, page: 1, per_page: 30 });
    assert.deepEqual(vals, valsPost);
    assert.equal(vals.block_height, "1");
    assert.equal(vals.count, "1");
    assert.equal(vals.total, "1");
    assert.match(vals.validators[0].address, /^[0-9A-F]{40}$/);
    assert.equal(vals.validators[0].pub_key.type, keyType(form));
    assert.match(vals.validators[0].proposer_priority, INT);

    const [genesis, genesisPost] = await both(form, "genesis");
    assert.deepEqual(genesis, genesisPost);
    assert.match(genesis.genesis.genesis_time, TIME);
    assert.equal(genesis.genesis.initial_height, "1");
    assert.equal(genesis.genesis.validators[0].pub_key.type, keyType(form));
    assert.equal(genesis.genesis.consensus_params.evidence.max_age_num_blocks, "100000");
    assert.equal("max_age" in genesis.genesis.consensus_params.evidence, form === "seed");

    const [chunk, chunkPost] = await both(form, "genesis_chunked", { chunk: 0 });
    assert.deepEqual(chunk, chunkPost);
    assert.equal(chunk.chunk, form === "seed" ? 0 : "0");
    assert.equal(chunk.total, form === "seed" ? 1 : "1");
    // The chunks decode to the very document /genesis returns (max_age included in the seed form).
    assert.deepEqual(JSON.parse(Buffer.from(chunk.data, "base64").toString()), genesis.genesis);
    const beyond = await get(form, "genesis_chunked", { chunk: 1 });
    assert.equal(beyond.error.data, "there are 0 chunks, ID is invalid");

    const [params, paramsPost] = await both(form, "consensus_params", { height: 1 });
    assert.deepEqual(params, paramsPost);
    assert.equal(params.block_height, "1");
    assert.equal(params.consensus_params.block.max_bytes, "22020096");
    assert.equal(params.consensus_params.evidence.max_age_duration, "172800000000000");
    if (form === "seed") assert.equal(params.consensus_params.evidence.max_age, "100000");
  });

  test(`${form}: mempool and broadcast routes`, async () => {
    const txOf = (name: string) => new TextEncoder().encode(`${form}-${name}=${Date.now()}`);
    for (const style of [get, post]) {
      const sync = (await style(form, "broadcast_tx_sync", { tx: txOf(`sync-${style.name}`) })).result;
      code(form, sync.code);
      assert.match(sync.hash, HEX64);
      const async = (await style(form, "broadcast_tx_async", { tx: txOf(`async-${style.name}`) })).result;
      code(form, async.code);
      assert.match(async.hash, HEX64);
      const check = (await style(form, "check_tx", { tx: txOf(`check-${style.name}`) })).result;
      code(form, check.code);
      assert.equal(check.gas_wanted, "1");
      const commit = (await style(form, "broadcast_tx_commit", { tx: txOf(`commit-${style.name}`) })).result;
      assert.match(commit.height, INT);
      code(form, commit.deliver_tx.code);
      code(form, commit.check_tx.code);
    }
    for (const u of await both(form, "unconfirmed_txs", { limit: 5 })) {
      assert.match(u.n_txs, INT);
      assert.match(u.total_bytes, INT);
      assert.ok(Array.isArray(u.txs));
    }
    for (const n of await both(form, "num_unconfirmed_txs")) {
      assert.match(n.total, INT);
      if (form === "seed") assert.equal("txs" in n, false);
      else assert.equal(n.txs, null);
    }
    const [flushed] = await both(form, "unsafe_flush_mempool");
    assert.deepEqual(flushed, {});
  });

  test(`${form}: abci_info, abci_query`, async () => {
    for (const info of await both(form, "abci_info")) {
      assert.equal(typeof info.response.data, "string");
      assert.match(info.response.last_block_height, INT);
    }
    const key = `${form}-key`;
    const [q, qPost] = await both(form, "abci_query", {
      path: "/store",
      data: new HexParam(new TextEncoder().encode(key)),
      height: 0,
      prove: false,
    });
    assert.deepEqual(q, qPost);
    if (form === "seed") {
      assert.equal(q.response.key, Buffer.from(key).toString("hex").toUpperCase());
      assert.equal(q.response.value, Buffer.from("committed").toString("hex").toUpperCase());
      assert.equal(q.response.code, "0");
    } else {
      assert.equal(q.response.key, Buffer.from(key).toString("base64"));
      assert.equal(q.response.value, Buffer.from("committed").toString("base64"));
      assert.equal(q.response.code, 0);
    }
    assert.match(q.response.height, INT);
  });

  test(`${form}: consensus_state, dump_consensus_state`, async () => {
    for (const c of await both(form, "consensus_state")) {
      assert.match(c.round_state["height/round/step"], /^\d+\/\d+\/\d+$/);
      assert.match(c.round_state.start_time, TIME);
      assert.match(c.round_state.proposer.address, /^[0-9A-F]{40}$/);
    }
    for (const d of await both(form, "dump_consensus_state")) {
      assert.match(d.round_state.height, INT);
      assert.equal(typeof d.round_state.round, "number");
      assert.equal(d.round_state.validators.validators[0].pub_key.type, keyType(form));
      assert.deepEqual(d.peers, []);
    }
  });

  test(`${form}: broadcast_evidence, dial_seeds and dial_peers fail with clear errors`, async () => {
    const evidence = { type: "tendermint/DuplicateVoteEvidence", value: {} };
    for (const style of [get, post]) {
      const ev = await style(form, "broadcast_evidence", { evidence });
      assert.equal(ev.error.code, -32603);
      assert.match(ev.error.data, /evidence/);
      const seeds = await style(form, "dial_seeds", { seeds: ["f00d@127.0.0.1:26656"] });
      // the peer layer refuses an address whose node id is not 40 hex characters, naming it
      assert.match(seeds.error.data, /dial_seeds: invalid address \(f00d@127\.0\.0\.1:26656\): node id/);
      const peers = await style(form, "dial_peers", { peers: ["f00d@127.0.0.1:26656"], persistent: false });
      assert.match(peers.error.data, /dial_peers: invalid address \(f00d@127\.0\.0\.1:26656\): node id/);
    }
  });
}
