// The RPC context over a fake node handle (streams/projections/rpc-context.ts): what each route
// reads from the stores and mempool, v0.34's error wording, and the domain results the JSON
// encoders then write (checked through the tendermint encoder where the shape matters).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { RpcError } from "../../src/rpc/errors.js";
import { tendermintJsonEncoder } from "../../src/rpc/json/index.js";
import { evidenceItemHash, TxSha256 } from "../../src/wire/hashes.js";
import type { NodeHandle } from "../../streams/node-handle.js";
import { createRpcContext } from "../../streams/projections/rpc-context.js";
import { evidenceFromJson } from "../../streams/projections/rpc-evidence.js";
import { GENESIS_CHUNK_BYTES, genesisChunk, genesisOf } from "../../streams/projections/rpc-genesis.js";

const filled = (n: number, byte: number) => new Uint8Array(n).fill(byte);
const time = { seconds: 1577836800n, nanos: 0 };
const blockId = (b: number) => ({ hash: filled(32, b), partSetHeader: { total: 1, hash: filled(32, b) } });
const header = (height: bigint) => ({ height, chainId: "c", time, version: { block: 11n, app: 0n } });
const commitOf = (height: bigint) => ({ height, round: 0, blockId: blockId(Number(height)), signatures: [] });
const validator = (b: number) => ({
  address: filled(20, b),
  pubKey: { sum: { $case: "ed25519" as const, ed25519: filled(32, b) } },
  votingPower: 10n,
  proposerPriority: 0n,
});

function fakeNode(overrides: Record<string, unknown> = {}): NodeHandle {
  const metas = new Map(
    [1n, 2n, 3n].map((h) => [
      h,
      { blockId: blockId(Number(h)), header: header(h), blockSize: 100n, numTxs: 0n },
    ]),
  );
  const pool = new Map([
    ["AA", { tx: new Uint8Array([1]) }],
    ["BB", { tx: new Uint8Array([2]) }],
  ]);
  const node = {
    genesis: { chainId: "c" },
    stores: {
      blockStore: {
        base: () => 1n,
        height: () => 3n,
        latestMeta: () => metas.get(3n),
        loadBlockMeta: async (h: bigint) => metas.get(h),
        loadSeenCommit: async (h: bigint) => ({ ...commitOf(h), round: 7 }),
        loadBlockCommit: async (h: bigint) => (h < 3n ? commitOf(h) : undefined),
        loadBlockMetas: async (min: bigint, max: bigint) =>
          [...metas.values()].filter((m) => m.header.height >= min && m.header.height <= max),
      },
      stateStore: {
        loadValidators: async () => ({
          validators: [validator(1), validator(2), validator(3)],
          proposer: undefined,
          totalVotingPower: 30n,
        }),
      },
      txIndexer: { enabled: true, getByHash: async () => undefined },
    },
    mempool: {
      state: () => ({ txs: pool, txsBytes: 2, cache: new Map([["CACHED", true]]) }),
      submit: async () => ({ hash: "X", outcome: { kind: "added" }, checkTx: undefined }),
      flush: () => pool.clear(),
    },
    catchingUp: () => false,
    ...overrides,
  };
  return node as unknown as NodeHandle;
}

test("commit: the latest height's seen commit is not canonical, an earlier height's is", async () => {
  const context = createRpcContext(fakeNode());
  const latest = (await context.commit!(3n)) as {
    canonical: boolean;
    signedHeader: { commit: { round: number } };
  };
  assert.equal(latest.canonical, false);
  assert.equal(latest.signedHeader.commit.round, 7);
  const earlier = (await context.commit!(2n)) as {
    canonical: boolean;
    signedHeader: { commit: { round: number } };
  };
  assert.equal(earlier.canonical, true);
  assert.equal(earlier.signedHeader.commit.round, 0);
  assert.equal(await context.commit!(9n), null);
});

test("blockchain: metas newest first; validators paged with v0.34's page error", async () => {
  const context = createRpcContext(fakeNode());
  const chain = (await context.blockchain!(1n, 3n)) as {
    lastHeight: bigint;
    blockMetas: { header: { height: bigint } }[];
  };
  assert.deepEqual(
    chain.blockMetas.map((m) => m.header.height),
    [3n, 2n, 1n],
  );
  assert.equal(chain.lastHeight, 3n);
  const page2 = await context.validators!(2n, 2, 2);
  assert.equal(
    tendermintJsonEncoder
      .encodeResult("validators", page2)
      .replace(/"validators":\[.*\]/, '"validators":[…]'),
    '{"block_height":"2","validators":[…],"count":"1","total":"3"}',
  );
  await assert.rejects(
    async () => context.validators!(2n, 3, 2),
    /page should be within \[1, 2\] range, given 3/,
  );
});

test("mempool: unconfirmed_txs honours the limit, num_unconfirmed_txs has no txs, a cached tx is refused by async", async () => {
  const context = createRpcContext(fakeNode());
  assert.equal(
    tendermintJsonEncoder.encodeResult("unconfirmed_txs", await context.unconfirmedTxs!(1)),
    '{"n_txs":"1","total":"2","total_bytes":"2","txs":["AQ=="]}',
  );
  assert.equal(
    tendermintJsonEncoder.encodeResult("num_unconfirmed_txs", await context.numUnconfirmedTxs!()),
    '{"n_txs":"2","total":"2","total_bytes":"2","txs":null}',
  );
  const cachedTx = new Uint8Array(0);
  const node = fakeNode({
    mempool: {
      state: () => ({
        txs: new Map(),
        txsBytes: 0,
        cache: new Map([["E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855", true]]),
      }),
      seen: (hash: string) => hash === "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855",
      hashTx: (tx: Uint8Array) => TxSha256.of(tx),
    },
  });
  // Refusals answered per request under load capture no stack (only the message is answered).
  const stackless = (message: RegExp) => (error: unknown) => {
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, "RPC_HANDLER_FAILED");
    assert.match(error.message, message);
    assert.equal(error.stack, `RpcError: ${error.message}`);
    return true;
  };
  assert.throws(
    () => createRpcContext(node).broadcastTxAsync!(cachedTx),
    stackless(/^tx already exists in cache$/),
  );
  // broadcast_tx_async hashes the tx once (the mempool's hashTx) and offers it with that hash
  const submitted: unknown[][] = [];
  const accepting = fakeNode({
    mempool: {
      state: () => ({ txs: new Map(), txsBytes: 0, cache: new Map() }),
      seen: () => false,
      hashTx: (tx: Uint8Array) => TxSha256.of(tx),
      // async offers the tx (no waiter per tx); submit is what waits
      offer: (...args: unknown[]) => {
        submitted.push(args);
      },
    },
  });
  const asyncTx = new TextEncoder().encode("k=v");
  const answer = createRpcContext(accepting).broadcastTxAsync!(asyncTx) as { hash: string };
  const expected = createHash("sha256").update(asyncTx).digest("hex").toUpperCase();
  assert.equal(answer.hash, expected);
  assert.equal(submitted.length, 1);
  const [offered] = submitted[0] as [TxSha256];
  assert.ok(TxSha256.madeFor(offered, asyncTx));
  assert.equal(offered.key, expected);
  // a mempool refusal before CheckTx is an error with the mempool's message
  const refusing = fakeNode({
    mempool: {
      submit: async () => ({
        hash: "X",
        outcome: { kind: "refused", code: "FULL", message: "mempool is full: number of txs 1 (max: 1)" },
        checkTx: undefined,
      }),
    },
  });
  await assert.rejects(
    async () => createRpcContext(refusing).broadcastTxSync!(new Uint8Array([1])),
    stackless(/^mempool is full: number of txs 1 \(max: 1\)$/),
  );
});

test("tx: an unknown hash is v0.34's not-found error; dial routes say when a node has no peer layer", async () => {
  const context = createRpcContext(fakeNode());
  await assert.rejects(
    async () => context.tx!(new Uint8Array([0xab, 0xcd]), false),
    /^RpcError: tx \(ABCD\) not found$/,
  );
  assert.throws(
    () => context.dialSeeds!(["id@127.0.0.1:26656"]),
    /dial_seeds is not available: this node runs without a peer layer/,
  );
  assert.throws(
    () => context.dialPeers!({ peers: ["id@h:1"], persistent: false, unconditional: false, private: false }),
    /dial_peers is not available: this node runs without a peer layer/,
  );
});

test("genesis: chunks of 16 MiB, an id past the end names the last id, a large document is refused", async () => {
  const text = new TextEncoder().encode('{"chain_id":"c"}');
  const small = {
    size: async () => text.length,
    read: async (o: number, n: number) => text.subarray(o, o + n),
  };
  const chunk = await genesisChunk(small, 0);
  assert.deepEqual({ chunk: chunk.chunk, total: chunk.total }, { chunk: 0, total: 1 });
  assert.deepEqual(chunk.data, text);
  await assert.rejects(async () => genesisChunk(small, 1), /there are 0 chunks, ID is invalid/);
  const large = {
    size: async () => 2 * GENESIS_CHUNK_BYTES + 5,
    read: async (_o: number, n: number) => new Uint8Array(Math.min(n, 5)),
  };
  assert.equal((await genesisChunk(large, 2)).total, 3);
  await assert.rejects(
    async () => genesisOf(fakeNode(), large),
    /genesis response is large, please use the genesis_chunked API instead/,
  );
});

const voteJson = (b: number) => ({
  type: 1,
  height: "2",
  round: 0,
  block_id: { hash: "0".repeat(63) + String(b), parts: { total: 1, hash: "0".repeat(63) + String(b) } },
  timestamp: "2020-01-01T00:00:00Z",
  validator_address: "0A".repeat(20),
  validator_index: 0,
  signature: Buffer.from(filled(64, b)).toString("base64"),
});
const envelope = {
  type: "tendermint/DuplicateVoteEvidence",
  value: {
    vote_a: voteJson(1),
    vote_b: voteJson(2),
    TotalVotingPower: "10",
    ValidatorPower: "10",
    Timestamp: "2020-01-01T00:00:00Z",
  },
};

test("broadcast_evidence: read and checked; fed to an exposed pool; a clear error without one", async () => {
  const evidence = evidenceFromJson(envelope);
  assert.equal(evidence.sum?.$case, "duplicateVoteEvidence");
  assert.throws(
    () => evidenceFromJson({ type: "tendermint/DuplicateVoteEvidence", value: { vote_a: voteJson(1) } }),
    /value\.vote_b is missing/,
  );
  assert.throws(
    () => evidenceFromJson({ type: "x/Other", value: {} }),
    /evidence type "x\/Other" is unknown/,
  );
  assert.throws(
    () =>
      evidenceFromJson({
        ...envelope,
        value: { ...envelope.value, vote_a: voteJson(2), vote_b: voteJson(1) },
      }),
    /evidence is invalid: .*ordered by BlockID/,
  );
  await assert.rejects(
    async () => createRpcContext(fakeNode()).broadcastEvidence!(envelope),
    /does not accept evidence over RPC yet/,
  );
  const received: unknown[] = [];
  const withPool = fakeNode({ evidence: { addEvidence: (e: unknown) => received.push(e) } });
  const result = await createRpcContext(withPool).broadcastEvidence!(envelope);
  assert.equal(received.length, 1);
  assert.equal(
    tendermintJsonEncoder.encodeResult("broadcast_evidence", result),
    `{"hash":"${Buffer.from(evidenceItemHash(evidence)).toString("base64")}"}`,
  );
});

test("genesis_chunked without a file chunks the document's compact JSON in the node's form", async () => {
  const { genesisFromJson } = await import("../../src/types/genesis.js");
  const { genesisDocSource } = await import("../../streams/projections/rpc-genesis.js");
  const key = Buffer.from(filled(32, 7)).toString("base64");
  const doc = genesisFromJson(
    JSON.stringify({
      genesis_time: "2020-01-01T00:00:00Z",
      chain_id: "chunk-chain",
      validators: [{ pub_key: { type: "tendermint/PubKeyEd25519", value: key }, power: "10", name: "" }],
      app_state: { big: "BIG" },
      // a number beyond float64 precision, written into the text as the file would hold it
    }).replace('"BIG"', " 123456789012345678901234567890"),
    "test genesis",
  );
  const node = fakeNode({ genesis: doc });
  for (const form of ["seed", "tendermint"] as const) {
    const chunk = await genesisChunk(genesisDocSource(node, form), 0);
    const text = Buffer.from(chunk.data).toString();
    assert.ok(!text.includes("\n"), "compact");
    assert.ok(text.includes(`"type":"${form === "seed" ? "node" : "tendermint"}/PubKeyEd25519"`), text);
    assert.ok(text.includes('"app_state":{"big":123456789012345678901234567890}'), text);
    assert.equal(JSON.parse(text).chain_id, "chunk-chain");
  }
});

/** A genesis file as Tendermint v0.34 writes it: evidence params with max_age_num_blocks, no max_age. */
function genesisFileText(chainId: string, keyByte: number): string {
  const key = Buffer.from(filled(32, keyByte)).toString("base64");
  return JSON.stringify({
    genesis_time: "2020-01-01T00:00:00Z",
    chain_id: chainId,
    consensus_params: {
      block: { max_bytes: "22020096", max_gas: "-1", time_iota_ms: "1000" },
      evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
      validator: { pub_key_types: ["ed25519"] },
    },
    validators: [{ pub_key: { type: "tendermint/PubKeyEd25519", value: key }, power: "10", name: "" }],
  });
}

test("genesis_chunked decodes to the very document /genesis returns, in both forms", async () => {
  const { genesisFromJson } = await import("../../src/types/genesis.js");
  const { genesisDocSource } = await import("../../streams/projections/rpc-genesis.js");
  const { routeResultJson, jsonText } = await import("../../src/rpc/json/index.js");
  // Tendermint's genesis as a file holds evidence.max_age_num_blocks; the seed form writes max_age.
  const doc = genesisFromJson(genesisFileText("same-doc", 8), "test genesis");
  const node = fakeNode({ genesis: doc });
  for (const form of ["seed", "tendermint"] as const) {
    const chunk = await genesisChunk(genesisDocSource(node, form), 0);
    const route = routeResultJson("genesis", { genesis: doc }, form) as {
      genesis: Parameters<typeof jsonText>[0];
    };
    assert.deepEqual(
      JSON.parse(Buffer.from(chunk.data).toString()),
      JSON.parse(jsonText(route.genesis)),
      form,
    );
  }
});

test("status: one result object per state (heights, sync, power), so its JSON is written once", async () => {
  const { encoders } = await import("../../streams/projections/rpc-encoders.js");
  let height = 3n;
  const node = fakeNode({
    nodeInfo: {
      nodeId: "ab".repeat(20),
      moniker: "m",
      network: "c",
      version: "0.34.24",
      listenAddr: "tcp://0.0.0.0:26656",
      rpcAddress: "tcp://127.0.0.1:1",
      protocolVersion: { p2p: 8n, block: 11n, app: 0n },
      txIndex: "on",
    },
    validator: { address: filled(20, 1), pubKey: filled(32, 1), votingPower: () => 10n },
  });
  const store = (node as unknown as { stores: { blockStore: { height: () => bigint } } }).stores.blockStore;
  store.height = () => height;
  const context = createRpcContext(node);
  const first = await context.status!();
  assert.equal(await context.status!(), first);
  const text = encoders.tendermint.encodeResult("status", first);
  assert.equal(encoders.tendermint.encodeResult("status", first), text);
  assert.match(text, /"latest_block_height":"3"/);
  height = 4n;
  const next = await context.status!();
  assert.notEqual(next, first);
  assert.match(encoders.tendermint.encodeResult("status", next), /"latest_block_height":"4"/);
  assert.match(encoders.seed.encodeResult("status", next), /"type":"node\/PubKeyEd25519"/);
});

test("genesis_chunked of a context given the genesis file (rxbft inspect) decodes to /genesis in the seed form", async () => {
  const { writeFileSync, mkdtempSync, rmSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const { genesisFromJson } = await import("../../src/types/genesis.js");
  const { routeResultJson, jsonText } = await import("../../src/rpc/json/index.js");
  const text = genesisFileText("file-doc", 9);
  const dir = mkdtempSync(join(tmpdir(), "rxbft-genesis-file-"));
  const genesisFile = join(dir, "genesis.json");
  writeFileSync(genesisFile, text);
  try {
    const doc = genesisFromJson(text, "test genesis");
    const context = createRpcContext(fakeNode({ genesis: doc }), { genesisFile });
    const chunk = (await context.genesisChunked!(0)) as { data: Uint8Array };
    const route = routeResultJson("genesis", { genesis: doc }, "seed") as {
      genesis: Parameters<typeof jsonText>[0];
    };
    const decoded = JSON.parse(Buffer.from(chunk.data).toString());
    assert.deepEqual(decoded, JSON.parse(jsonText(route.genesis)));
    assert.equal(decoded.consensus_params.evidence.max_age, "100000");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
