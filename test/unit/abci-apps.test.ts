import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CounterApplication } from "../../src/abci/apps/counter.js";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { kvstoreAppHash } from "../../src/abci/apps/kvstore-app-hash.js";
import { NoopApplication } from "../../src/abci/apps/noop.js";
import { decodeValidatorTx } from "../../src/abci/apps/validator-tx.js";
import { CheckTxType, EvidenceType } from "../../src/wire/generated/tendermint/abci/types.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const tx = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "rxbft-kv-"));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const query = (data: string, prove = false) => ({ data: tx(data), path: "", height: 0n, prove });
const info = { version: "0.34.24", blockVersion: 11n, p2pVersion: 8n };

describe("kvstore app hash", () => {
  it("is the zigzag varint of the size in 8 bytes (reference §6.5 vectors)", () => {
    assert.equal(hex(kvstoreAppHash(0n)), "0000000000000000");
    assert.equal(hex(kvstoreAppHash(1n)), "0200000000000000");
    assert.equal(hex(kvstoreAppHash(2n)), "0400000000000000");
    assert.equal(hex(kvstoreAppHash(64n)), "8001000000000000");
    assert.equal(hex(kvstoreAppHash(300n)), "d804000000000000");
  });
});

describe("kvstore", () => {
  it("replays the golden session ex1.abci", async () => {
    const app = await KvstoreApplication.open(tempDir());
    try {
      assert.equal(hex((await app.commit({})).data), "0000000000000000");
      assert.equal(app.deliverTx({ tx: tx("abc") }).code, 0);
      assert.equal(hex((await app.commit({})).data), "0200000000000000");
      let q = app.query(query("abc"));
      assert.equal(text(q.value), "abc");
      assert.equal(q.log, "exists");
      assert.equal(q.height, 2n);
      app.deliverTx({ tx: tx("def=xyz") });
      assert.equal(hex((await app.commit({})).data), "0400000000000000");
      q = app.query(query("def"));
      assert.equal(text(q.value), "xyz");
      assert.equal(text(q.key), "def");
      assert.equal(q.height, 3n);
    } finally {
      await app.close();
    }
  });

  it("stores a tx without exactly one = under itself", async () => {
    const app = await KvstoreApplication.open(tempDir());
    app.deliverTx({ tx: tx("a=b=c") });
    app.deliverTx({ tx: tx("plain") });
    await app.commit({});
    assert.equal(text(app.query(query("a=b=c")).value), "a=b=c");
    assert.equal(app.query(query("a")).log, "does not exist");
    assert.equal(text(app.query(query("plain")).value), "plain");
    await app.close();
  });

  it("answers a missing key with does not exist, and index -1 when proof is asked", async () => {
    const app = await KvstoreApplication.open(tempDir());
    const q = app.query(query("nope", true));
    assert.equal(q.log, "does not exist");
    assert.equal(q.value.length, 0);
    assert.equal(q.index, -1n);
    assert.equal(app.query(query("nope")).index, 0n);
    await app.close();
  });

  it("emits the app event with indexed and unindexed attributes", async () => {
    const app = await KvstoreApplication.open(tempDir());
    const r = app.deliverTx({ tx: tx("name=satoshi") });
    assert.equal(r.events.length, 1);
    const [ev] = r.events;
    assert.equal(ev!.type, "app");
    assert.deepEqual(
      ev!.attributes.map((a) => [text(a.key), text(a.value), a.index]),
      [
        ["creator", "Cosmoshi Netowoko", true],
        ["key", "name", true],
        ["index_key", "index is working", true],
        ["noindex_key", "index is working", false],
      ],
    );
    await app.close();
  });

  it("accepts every CheckTx with gas_wanted 1", async () => {
    const app = await KvstoreApplication.open(tempDir());
    const r = app.checkTx({ tx: tx("x"), type: CheckTxType.NEW });
    assert.equal(r.code, 0);
    assert.equal(r.gasWanted, 1n);
    await app.close();
  });

  it("reports size, version, height and app hash in Info, and resumes after a restart", async () => {
    const dir = tempDir();
    let app = await KvstoreApplication.open(dir);
    app.deliverTx({ tx: tx("k1=v1") });
    app.deliverTx({ tx: tx("k2=v2") });
    await app.commit({});
    await app.close();
    app = await KvstoreApplication.open(dir);
    const i = app.info(info);
    assert.equal(i.data, '{"size":2}');
    assert.equal(i.version, "0.17.0");
    assert.equal(i.appVersion, 1n);
    assert.equal(i.lastBlockHeight, 1n);
    assert.equal(hex(i.lastBlockAppHash), "0400000000000000");
    assert.equal(text(app.query(query("k2")).value), "v2");
    await app.close();
  });

  it("forgets uncommitted writes across a restart", async () => {
    const dir = tempDir();
    let app = await KvstoreApplication.open(dir);
    app.deliverTx({ tx: tx("gone=1") });
    await app.close();
    app = await KvstoreApplication.open(dir);
    assert.equal(app.query(query("gone")).log, "does not exist");
    assert.equal(app.info(info).data, '{"size":0}');
    await app.close();
  });

  it("sets retain_height from retainBlocks", async () => {
    const app = await KvstoreApplication.open(tempDir(), { retainBlocks: 2n });
    assert.equal((await app.commit({})).retainHeight, 0n);
    assert.equal((await app.commit({})).retainHeight, 1n);
    assert.equal((await app.commit({})).retainHeight, 2n);
    await app.close();
  });
});

describe("persistent_kvstore validator txs", () => {
  const pk = Buffer.alloc(32, 7).toString("base64");
  it("parses val:<base64>!<power> and rejects malformed ones with a log", () => {
    const v = decodeValidatorTx(tx(`val:${pk}!10`));
    assert.ok(typeof v !== "string");
    assert.equal(v.power, 10n);
    assert.match(decodeValidatorTx(tx(`val:${pk}`)) as string, /pubkey!power/);
    assert.match(decodeValidatorTx(tx(`val:???!1`)) as string, /invalid base64/);
    assert.match(decodeValidatorTx(tx(`val:${pk}!ten`)) as string, /not an int/);
  });

  it("returns the updates in EndBlock and refuses to remove an unknown validator", async () => {
    const app = await KvstoreApplication.open(tempDir(), { validatorTxs: true });
    app.beginBlock({
      hash: new Uint8Array(),
      header: undefined as never,
      lastCommitInfo: undefined as never,
      byzantineValidators: [],
    });
    assert.equal(app.deliverTx({ tx: tx(`val:${pk}!10`) }).code, 0);
    const other = Buffer.alloc(32, 9).toString("base64");
    const bad = app.deliverTx({ tx: tx(`val:${other}!0`) });
    assert.equal(bad.code, 3);
    const end = app.endBlock({ height: 1n });
    assert.equal(end.validatorUpdates.length, 1);
    assert.equal(end.validatorUpdates[0]!.power, 10n);
    await app.commit({});
    // persistent_kvstore answers /val with the stored ValidatorUpdate as Go's WriteMessage writes
    // it: zigzag varint length (38 → 4c), then {pub_key {ed25519}, power}.
    assert.equal(
      hex(app.query({ data: Buffer.alloc(32, 7), path: "/val", height: 0n, prove: false }).value),
      `4c0a220a20${"07".repeat(32)}100a`,
    );
    // Evidence of a duplicate vote lowers the power by one.
    const { addressOf } = await import("../../src/crypto/hash.js");
    app.beginBlock({
      hash: new Uint8Array(),
      header: undefined as never,
      lastCommitInfo: undefined as never,
      byzantineValidators: [
        {
          type: EvidenceType.DUPLICATE_VOTE,
          validator: { address: addressOf(Buffer.alloc(32, 7)), power: 10n },
          height: 1n,
          time: { seconds: 0n, nanos: 0 },
          totalVotingPower: 10n,
        },
      ],
    });
    // persistent_kvstore reports the punishment to the node in EndBlock, like any other change
    // (its updateValidator appends to ValUpdates), so the power drops at H+2 in consensus too.
    const punished = app.endBlock({ height: 2n }).validatorUpdates;
    assert.equal(punished.length, 1);
    assert.equal(punished[0]!.power, 9n);
    assert.deepEqual(punished[0]!.pubKey, {
      sum: { $case: "ed25519", ed25519: new Uint8Array(Buffer.alloc(32, 7)) },
    });
    assert.equal(
      hex(app.query({ data: Buffer.alloc(32, 7), path: "/val", height: 0n, prove: false }).value),
      `4c0a220a20${"07".repeat(32)}1009`,
    );
    await app.close();
  });
});

describe("persistent_kvstore punishment (review)", () => {
  const key = (n: number) => new Uint8Array(Buffer.alloc(32, n));
  const begin = (evidence: { address: Uint8Array; power: bigint }[]) => ({
    hash: new Uint8Array(),
    header: undefined as never,
    lastCommitInfo: undefined as never,
    byzantineValidators: evidence.map((e) => ({
      type: EvidenceType.DUPLICATE_VOTE,
      validator: e,
      height: 1n,
      time: { seconds: 0n, nanos: 0 },
      totalVotingPower: 10n,
    })),
  });

  it("reports a punished validator once per block, and power 1 punished as a removal", async () => {
    const { addressOf } = await import("../../src/crypto/hash.js");
    const app = await KvstoreApplication.open(tempDir(), { validatorTxs: true });
    app.initChain({
      time: { seconds: 0n, nanos: 0 },
      chainId: "c",
      consensusParams: undefined,
      validators: [
        { pubKey: { sum: { $case: "ed25519", ed25519: key(1) } }, power: 5n },
        { pubKey: { sum: { $case: "ed25519", ed25519: key(2) } }, power: 1n },
      ],
      appStateBytes: new Uint8Array(),
      initialHeight: 1n,
    });
    // Two pieces of evidence against validator 1 in one block (different heights): one update.
    app.beginBlock(
      begin([
        { address: addressOf(key(1)), power: 5n },
        { address: addressOf(key(1)), power: 5n },
        { address: addressOf(key(2)), power: 1n },
      ]),
    );
    const updates = app.endBlock({ height: 2n }).validatorUpdates;
    assert.deepEqual(
      updates.map((u) => [u.pubKey?.sum?.$case === "ed25519" ? u.pubKey.sum.ed25519[0] : -1, u.power]),
      [
        [1, 4n],
        [2, 0n],
      ],
    );
    await app.commit({});
    assert.equal(app.query({ data: key(2), path: "/val", height: 0n, prove: false }).value.length, 0);
    await app.close();
  });
});

describe("counter", () => {
  const n = (v: number) => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(v));
    return b.subarray(8 - Math.max(1, Math.ceil(Math.log2(v + 1) / 8)));
  };

  it("counts txs and hashes; app hash is empty at 0 txs then 8-byte big-endian count", () => {
    const app = new CounterApplication();
    assert.equal(app.commit().data.length, 0);
    app.deliverTx({ tx: tx("anything") });
    app.deliverTx({ tx: tx("more") });
    assert.equal(hex(app.commit().data), "0000000000000002");
    assert.equal(app.info().data, '{"hashes":2,"txs":2}');
    assert.equal(
      text(app.query({ data: new Uint8Array(), path: "hash", height: 0n, prove: false }).value),
      "2",
    );
    assert.equal(
      text(app.query({ data: new Uint8Array(), path: "tx", height: 0n, prove: false }).value),
      "2",
    );
    assert.match(
      app.query({ data: new Uint8Array(), path: "x", height: 0n, prove: false }).log,
      /Invalid query path/,
    );
  });

  it("in serial mode rejects out-of-order values in DeliverTx and CheckTx", () => {
    const app = new CounterApplication();
    assert.equal(app.setOption({ key: "serial", value: "on" }).info, "");
    assert.equal(app.deliverTx({ tx: n(0) }).code, 0);
    const skip = app.deliverTx({ tx: n(2) });
    assert.equal(skip.code, 2);
    assert.equal(skip.log, "Invalid nonce. Expected 1, got 2");
    assert.equal(app.deliverTx({ tx: n(1) }).code, 0);
    assert.equal(app.checkTx({ tx: n(1), type: CheckTxType.NEW }).code, 2);
    assert.equal(app.checkTx({ tx: n(2), type: CheckTxType.NEW }).code, 0);
    assert.equal(app.checkTx({ tx: n(9), type: CheckTxType.NEW }).code, 0);
    assert.equal(app.deliverTx({ tx: new Uint8Array(9) }).code, 1);
    assert.equal(app.checkTx({ tx: new Uint8Array(9), type: CheckTxType.NEW }).code, 1);
  });

  it("answers an unknown option with info and stays non-serial", () => {
    const app = new CounterApplication();
    assert.match(app.setOption({ key: "serial", value: "maybe" }).info, /Unknown key/);
    assert.equal(app.deliverTx({ tx: n(5) }).code, 0);
  });
});

describe("noop", () => {
  it("answers every call with empty, code 0", () => {
    const app = new NoopApplication();
    assert.equal((app.checkTx({ tx: tx("x"), type: CheckTxType.NEW }) as { code: number }).code, 0);
    assert.equal((app.commit({}) as { data: Uint8Array }).data.length, 0);
    assert.equal((app.info(info) as { lastBlockHeight: bigint }).lastBlockHeight, 0n);
  });
});
