// A running node with [instrumentation] prometheus = true: its endpoint is scraped, every metric of
// CometBFT v0.34.35's four sets is there under the `tendermint` namespace with v0.34's type and
// labels (chain_id on each), rxbft's own are there, values move as blocks, txs and RPC calls
// happen, and max_open_connections holds extra connections back until one closes.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { after, test } from "node:test";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
}

function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("# TYPE ")) {
      const [, , name, type] = line.split(" ");
      types.set(name!, type!);
    } else if (line !== "" && !line.startsWith("#")) {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      assert.ok(m, `unparsable exposition line: ${line}`);
      const labels: Record<string, string> = {};
      for (const pair of (m[2] ?? "").matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g))
        labels[pair[1]!] = pair[2]!;
      samples.push({ name: m[1]!, labels, value: Number(m[3]) });
    }
  }
  return { types, samples };
}

const value = (e: Exposition, name: string, labels: Record<string, string> = {}) =>
  e.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

// v0.34.35's metrics, by set: name (after the namespace) → type, and the labels beside chain_id.
const EXPECTED: Record<string, [string, string[]]> = {
  consensus_height: ["gauge", []],
  consensus_validator_last_signed_height: ["gauge", ["validator_address"]],
  consensus_rounds: ["gauge", []],
  consensus_validators: ["gauge", []],
  consensus_validators_power: ["gauge", []],
  consensus_validator_power: ["gauge", ["validator_address"]],
  consensus_validator_missed_blocks: ["gauge", ["validator_address"]],
  consensus_missing_validators: ["gauge", []],
  consensus_missing_validators_power: ["gauge", []],
  consensus_byzantine_validators: ["gauge", []],
  consensus_byzantine_validators_power: ["gauge", []],
  consensus_block_interval_seconds: ["histogram", []],
  consensus_num_txs: ["gauge", []],
  consensus_block_size_bytes: ["gauge", []],
  consensus_total_txs: ["gauge", []],
  consensus_latest_block_height: ["gauge", []],
  consensus_fast_syncing: ["gauge", []],
  consensus_state_syncing: ["gauge", []],
  consensus_block_parts: ["counter", ["peer_id"]],
  consensus_block_gossip_parts_received: ["counter", ["matches_current"]],
  consensus_step_duration_seconds: ["histogram", ["step"]],
  consensus_quorum_prevote_message_delay: ["gauge", ["proposer_address"]],
  consensus_full_prevote_message_delay: ["gauge", ["proposer_address"]],
  mempool_size: ["gauge", []],
  mempool_size_bytes: ["gauge", []],
  mempool_tx_size_bytes: ["histogram", []],
  mempool_failed_txs: ["counter", []],
  mempool_rejected_txs: ["counter", []],
  mempool_evicted_txs: ["counter", []],
  mempool_recheck_times: ["counter", []],
  mempool_active_outbound_connections: ["gauge", []],
  p2p_peers: ["gauge", []],
  p2p_peer_receive_bytes_total: ["counter", ["peer_id", "chID"]],
  p2p_peer_send_bytes_total: ["counter", ["peer_id", "chID"]],
  p2p_peer_pending_send_bytes: ["gauge", ["peer_id"]],
  p2p_num_txs: ["gauge", ["peer_id"]],
  p2p_message_receive_bytes_total: ["counter", ["message_type"]],
  p2p_message_send_bytes_total: ["counter", ["message_type"]],
  state_block_processing_time: ["histogram", []],
};

function configure(home: string, instrumentation: Record<string, string | number | boolean>): void {
  const file = join(home, "config", "config.toml");
  let text = readFileSync(file, "utf8");
  for (const [key, v] of Object.entries(instrumentation)) {
    const re = new RegExp(`^(\\[instrumentation\\][\\s\\S]*?)^${key} = .*$`, "m");
    assert.ok(re.test(text), `config.toml has no [instrumentation] ${key}`);
    text = text.replace(re, `$1${key} = ${JSON.stringify(v)}`);
  }
  writeFileSync(file, text);
}

const METRICS_AT = /serving Prometheus metrics\s.*address=([0-9.]+:\d+)/;

/** One scrape on a connection of its own (no keep-alive pool: the connection limit is under test). */
function scrape(address: string): Promise<{ text: string; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = get(`http://${address}/metrics`, { agent: false }, (res) => {
      assert.equal(res.statusCode, 200);
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        text += c;
      });
      res.on("end", () => resolve({ text, contentType: String(res.headers["content-type"]) }));
    });
    req.on("error", reject);
  });
}

test("a running node serves v0.34's metrics, and they move", { timeout: 90_000 }, async () => {
  const home = await initFastHome({ timeout_commit: "100ms" }, "rxbft-metrics-");
  configure(home, { prometheus: true, prometheus_listen_addr: "127.0.0.1:0", max_open_connections: 1 });
  const node = new NodeProcess(home);
  after(() => node.kill("SIGKILL"));
  await node.waitFor(() => METRICS_AT.test(node.output) && node.height >= 2n, "metrics and height 2");
  const address = METRICS_AT.exec(node.output)![1]!;

  const first = await scrape(address);
  assert.match(first.contentType, /^text\/plain; version=0\.0\.4/);
  const a = parseExposition(first.text);
  for (const [name, [type, labels]] of Object.entries(EXPECTED)) {
    const full = `tendermint_${name}`;
    assert.equal(a.types.get(full), type, `${full} is a ${type}`);
    for (const s of a.samples.filter((x) => x.name.startsWith(full) && x.name.length <= full.length + 7)) {
      assert.equal(s.labels.chain_id, "node-e2e", `${s.name} carries chain_id`);
      for (const l of labels) assert.ok(l in s.labels, `${s.name} has label ${l}`);
    }
  }
  for (const name of [
    "rxbft_rpc_requests_total",
    "rxbft_rpc_request_duration_seconds",
    "rxbft_rpc_websocket_subscribers",
    "rxbft_rpc_dropped_subscriptions_total",
    "rxbft_consensus_log_fsync_seconds",
    "rxbft_inputs_folded_total",
  ])
    assert.ok(a.types.has(name), `${name} is exposed`);
  assert.ok(value(a, "tendermint_consensus_height") >= 3, "height is the height being decided");
  assert.equal(value(a, "tendermint_consensus_validators"), 1);
  assert.equal(value(a, "tendermint_consensus_fast_syncing"), 0);
  assert.ok(value(a, "tendermint_consensus_step_duration_seconds_count", { step: "Propose" }) >= 1);
  assert.ok(value(a, "rxbft_consensus_log_fsync_seconds_count") >= 1, "fsyncs are timed");
  assert.ok(value(a, "rxbft_inputs_folded_total", { machine: "consensus", source: "signer" }) >= 2);
  const ownSigned = a.samples.find((s) => s.name === "tendermint_consensus_validator_last_signed_height");
  assert.ok(ownSigned && ownSigned.value >= 2, "our validator's last signed height is set");

  // Txs and RPC calls, then a few more blocks.
  const url = node.rpcUrl!;
  for (let i = 0; i < 20; i++) {
    const tx = Buffer.from(`metric${i}=v${i}`).toString("hex");
    const r = (await (await fetch(`${url}/broadcast_tx_sync?tx=0x${tx}`)).json()) as { result?: unknown };
    assert.ok(r.result, "tx admitted");
  }
  await fetch(`${url}/status`);
  await fetch(`${url}/no_such_route`);
  const h = node.height;
  await node.waitFor(() => node.height >= h + 3n, "three more blocks");
  const b = parseExposition((await scrape(address)).text);
  assert.ok(
    value(b, "tendermint_consensus_latest_block_height") >
      value(a, "tendermint_consensus_latest_block_height"),
  );
  assert.equal(value(b, "tendermint_consensus_total_txs") - value(a, "tendermint_consensus_total_txs"), 20);
  assert.equal(value(b, "tendermint_mempool_tx_size_bytes_count"), 20);
  assert.ok(
    value(b, "tendermint_consensus_block_interval_seconds_count") >
      value(a, "tendermint_consensus_block_interval_seconds_count"),
  );
  assert.ok(value(b, "tendermint_state_block_processing_time_count") >= 3);
  assert.ok(value(b, "tendermint_consensus_block_size_bytes") > 0);
  assert.equal(value(b, "rxbft_rpc_requests_total", { route: "broadcast_tx_sync", outcome: "ok" }), 20);
  assert.equal(value(b, "rxbft_rpc_requests_total", { route: "status", outcome: "ok" }), 1);
  assert.ok(
    value(b, "rxbft_inputs_folded_total", { machine: "mempool", source: "rpc", input: "TxsSubmitted" }) >= 20,
  );

  // max_open_connections = 1: an idle connection holds the only slot; a scrape waits for it.
  const idle = connect(Number(address.split(":")[1]), "127.0.0.1");
  await new Promise((resolve) => idle.once("connect", resolve));
  await new Promise((resolve) => setTimeout(resolve, 100));
  let answered = false;
  const held = scrape(address).then(() => {
    answered = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(answered, false, "a second connection waits while the limit is reached");
  idle.destroy();
  await held;
  assert.equal(answered, true);

  node.kill("SIGTERM");
  assert.equal((await node.exited).code, 0);
});
